// The child's end of the control pipe (../control-protocol.ts): imports the libraries it is asked to
// preload, says it is ready, then waits for the file to run. The pipe is closed before `onRun` is called.
import { Socket } from "node:net";
import { pathToFileURL } from "node:url";
import { CONTROL_FD, READY_LINE, type ControlMessage } from "../control-protocol";

export function readControl(onRun: (metaFile: string) => void, onClosed: () => void): void {
  const pipe = new Socket({ fd: CONTROL_FD, readable: true, writable: true });
  pipe.on("error", () => undefined); // a parent gone away shows as the end of the pipe
  let buffered = "";
  let work = Promise.resolve();
  let done = false;
  const handle = (message: ControlMessage) => {
    if ("preload" in message) {
      // A library that fails to load is left to fail again, the same way, when the file imports it.
      for (const file of message.preload) work = work.then(() => import(pathToFileURL(file).href).then(() => undefined, () => undefined));
      void work.then(() => {
        if (!done) pipe.write(READY_LINE);
      });
    } else if (typeof message.run === "string") {
      done = true;
      pipe.destroy();
      const metaFile = message.run;
      void work.then(() => onRun(metaFile));
    }
  };
  pipe.setEncoding("utf8");
  pipe.on("data", (text: string) => {
    buffered += text;
    for (let nl = buffered.indexOf("\n"); nl >= 0 && !done; nl = buffered.indexOf("\n")) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      try {
        handle(JSON.parse(line) as ControlMessage);
      } catch {
        // not ours to guess: a malformed line is ignored, and without `run` nothing runs
      }
    }
  });
  const closed = () => {
    if (!done) {
      done = true;
      onClosed();
    }
  };
  pipe.on("end", closed);
  pipe.on("close", closed);
}
