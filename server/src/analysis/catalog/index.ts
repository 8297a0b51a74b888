// Catalog queries: questions about a workspace that its clients ask (which machines and flows there are,
// what an eval file's calls run, which diagrams belong to a run), answered from analyses. Pure: the
// caller supplies analyses and the symbol index through a CatalogSource.
export type { CatalogSource, DefinitionRef } from "./types";
export { flowsOf, machinesOf } from "./machines";
export { evalSitesOf, flowsUsedBy } from "./evals";
export { diagramOf, evalGraphs, siteGraphs } from "./graphs";
