/**
 * Text the database can store (no NUL, valid UTF-8): the one place input is made storable.
 */
export * from "./storable-text";
