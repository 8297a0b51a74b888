// esbuild bundles the stylesheet next to the script (dist/media/panel.css).
declare module "*.css";
