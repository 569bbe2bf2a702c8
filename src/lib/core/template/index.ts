/** The template language: one tokenizer and one expander for every use. */
export * from './tokenize';
export * from './encode';
export * from './expand';
export * from './analyze';
export { sha1Hex } from './sha1';
