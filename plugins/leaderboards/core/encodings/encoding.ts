/** The largest finite double: a Big board's values reach ±MAX_DOUBLE. */
export const MAX_DOUBLE = 1.7976931348623157e308;
