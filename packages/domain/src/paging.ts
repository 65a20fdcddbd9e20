/** The arguments of one page of a list (DESIGN §2 "Lists"), as the repositories of `@lm/db` take them. */
export type { PageArgs } from "@lm/db";
