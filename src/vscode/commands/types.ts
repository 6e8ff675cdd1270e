// The commands area's types other areas name: what the commands accept.

export type { SkillReference, ValidateOptions } from './commands';
