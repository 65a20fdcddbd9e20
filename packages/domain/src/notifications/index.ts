/**
 * A seller's notification feed (DESIGN §11): the items the panel lists.
 */
export * from "./notifications";
