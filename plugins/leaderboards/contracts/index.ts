// The declarations every layer shares: the options, what games get back, the backend contract, the
// stage contracts and their context, the topics and the durable records. Nothing here runs; these
// files import the kernel and each other only. Files of types alone are re-exported as types, so a
// module that imports this one loads only those with values (topics, the contract with tools outside, and
// what the Replicator and its clients say).
export type * from "./backend";
export type * from "./board";
export type * from "./durable";
export type * from "./encoding";
export type * from "./entries";
export type * from "./manifest";
export type * from "./merge";
export type * from "./options";
export * from "./outside";
export type * from "./periods";
export type * from "./removals";
export * from "./replication";
export type * from "./settings";
export type * from "./stages";
export type * from "./store";
export type * from "./visible";
export * from "./topics";
