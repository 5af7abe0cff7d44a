export * from "./public";
export * from "./rules";
export * from "./stages";
export * from "./periods";
export * from "./warnings";
export * from "./store";
