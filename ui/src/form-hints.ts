// Rendering hints for the form library, added to a copy of the schema; what a value must be
// stays the same. A choice written as `oneOf`/`anyOf` of titled `const`s (the elicitation
// spec's titled enums) becomes an `enum` with `enum_titles`, as does a legacy `enumNames`;
// an array of choices becomes checkboxes; required properties are marked on the properties.
type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `[{ const, title }]` → the consts and titles, when every branch is such a choice. */
function titledChoices(branches: unknown): { values: unknown[]; titles: string[] } | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  if (!branches.every((b) => isObject(b) && 'const' in b)) return undefined;
  const choices = branches as Schema[];
  return { values: choices.map((b) => b.const), titles: choices.map((b) => String(b.title ?? b.const)) };
}

/** A legacy titled enum (`enumNames`) as `enum_titles`. */
function legacyTitles(schema: Schema): Schema {
  if (!Array.isArray(schema.enum) || !Array.isArray(schema.enumNames)) return schema;
  const options = isObject(schema.options) ? schema.options : {};
  return { ...schema, options: { ...options, enum_titles: schema.enumNames.map(String) } };
}

function asEnum(schema: Schema): Schema {
  const choices = titledChoices(schema.oneOf) ?? titledChoices(schema.anyOf);
  if (!choices) return schema;
  const { oneOf: _o, anyOf: _a, ...rest } = schema;
  const options = isObject(rest.options) ? rest.options : {};
  const type = rest.type ?? (choices.values.every((v) => typeof v === 'string') ? 'string' : undefined);
  return {
    ...rest,
    ...(type === undefined ? {} : { type }),
    enum: choices.values,
    options: { ...options, enum_titles: choices.titles },
  };
}

/**
 * `required: [keys]` of an object as `required: true` on each listed property (the library
 * reads both): "Value required" then shows at the field once it was touched, instead of one
 * message above the whole object from the start. A property that keeps a `required` list of
 * its own (keys without a property schema) stays in this object's list.
 */
function requiredAtFields(schema: Schema): Schema {
  const properties = schema.properties;
  if (!Array.isArray(schema.required) || !isObject(properties)) return schema;
  const movable = (k: unknown): k is string => {
    const property = typeof k === 'string' ? properties[k] : undefined;
    return isObject(property) && !Array.isArray(property.required);
  };
  const moved = schema.required.filter(movable);
  if (moved.length === 0) return schema;
  const rest = schema.required.filter((k) => !moved.includes(k as string));
  const { required: _required, ...others } = schema;
  const marked = Object.fromEntries(moved.map((k) => [k, { ...(properties[k] as Schema), required: true }]));
  return {
    ...others,
    properties: { ...properties, ...marked },
    ...(rest.length > 0 ? { required: rest } : {}),
  };
}

const BOUNDS: [string, string][] = [
  ['minimum', '≥'],
  ['exclusiveMinimum', '>'],
  ['maximum', '≤'],
  ['exclusiveMaximum', '<'],
  ['multipleOf', 'multiple of'],
];

/**
 * The constraints of a number or integer field in words (`integer, ≥ 1, ≤ 7`), or undefined
 * for another type. The field starts empty unless the schema has a `default` (see
 * schema-form.ts), and this text is its placeholder, so the constraint shows where a value
 * is missing.
 */
function numberConstraint(schema: Schema): string | undefined {
  const type = schema.type;
  if (type !== 'integer' && type !== 'number') return undefined;
  const bounds = BOUNDS.filter(([key]) => typeof schema[key] === 'number').map(
    ([key, sign]) => `${sign} ${String(schema[key])}`,
  );
  return [type, ...bounds].join(', ');
}

/** A number field's constraint as its placeholder (see {@link numberConstraint}). */
function constraintPlaceholder(schema: Schema): Schema {
  const text = numberConstraint(schema);
  if (text === undefined) return schema;
  const options = isObject(schema.options) ? schema.options : {};
  const attributes = isObject(options.inputAttributes) ? options.inputAttributes : {};
  return {
    ...schema,
    options: { ...options, inputAttributes: { placeholder: text, ...attributes } },
  };
}

/** The schema with form hints, recursively through properties and items. */
export function withFormHints(schema: Schema): Schema {
  let out = constraintPlaceholder(legacyTitles(asEnum(schema)));
  if (isObject(out.properties)) {
    const properties = Object.fromEntries(
      Object.entries(out.properties).map(([k, v]) => [k, isObject(v) ? withFormHints(v) : v]),
    );
    out = requiredAtFields({ ...out, properties });
  }
  if (isObject(out.items)) {
    const items = withFormHints(out.items);
    out = { ...out, items };
    if (out.type === 'array' && Array.isArray(items.enum) && out.format === undefined)
      out = { ...out, format: 'checkbox', uniqueItems: true };
  }
  return out;
}
