// TypeBox as the service imports it (`#typebox`): the type builder, the compiler and the value functions from
// one module. The build (scripts/bundle-typebox.mjs) replaces this module's output with a single-file bundle:
// Node otherwise loads TypeBox as ~680 small modules, most of the service's start-up time and memory.
export * from 'typebox';
export { Compile, type Validator } from 'typebox/compile';
export { default as Value } from 'typebox/value';
