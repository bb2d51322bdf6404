// Object kinds as the core numbers them: its kind table (core/src/world/kinds.h), exported by the
// module as the ObjectKind enum, so no kind code is written down twice.

export const kindCode = (module, name) => module.ObjectKind[name].value;
export const kindName = (module, code) => Object.keys(module.ObjectKind).find((k) => module.ObjectKind[k]?.value === code);
