/** What a caller does with a response. */
export * from './interpret';
export type { InterpretContext } from './interpret-context';
export { E164, type PhoneNumbers } from './phone-numbers';
export { firstCharacters, formatOf, messageOf } from './body';
export { readAccountTags, type AccountTags } from './provisioning';
export { ANSWER_SHAPES, type AnswerShape, type AnswerShapeId } from '../catalogue/answer-shapes';
export type { ShapeMatch } from './shapes';
