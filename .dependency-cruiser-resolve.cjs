// How imports resolve for the cycle check, run from the project's root: the kit's `$lib` alias.
module.exports = { resolve: { alias: { $lib: `${process.cwd()}/src/lib` } } };
