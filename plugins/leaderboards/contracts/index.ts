// The declarations every layer shares: the options, what games get back, the backend contract, the
// stage contracts and their context, the topics and the durable records. Nothing here runs; these
// files import the kernel and each other only.
export * from "./backend";
export * from "./board";
export * from "./durable";
export * from "./encoding";
export * from "./entries";
export * from "./manifest";
export * from "./merge";
export * from "./options";
export * from "./periods";
export * from "./removals";
export * from "./replication";
export * from "./settings";
export * from "./stages";
export * from "./store";
export * from "./topics";
