/**
 * Rules on tools: names, input and output schemas compiled in their declared dialect,
 * `structuredContent` of the `--call` calls against `outputSchema`, annotations, icons.
 */
import { compileJsonSchema } from '../../validation/index.js';
import type { EraSeen, Json } from '../observations.js';
import { isObject, listedItems, perEra, resultOf, toolsOf, type Hit, type Rule } from './kit.js';

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const toolName: Rule = {
  id: 'tools.name',
  severity: 'warning',
  section: 'server/tools "Tool Names"',
  requirement:
    'Tool names SHOULD be between 1 and 128 characters; the only allowed characters SHOULD be A-Z, a-z, 0-9, underscore, hyphen and dot.',
  check: (seen) =>
    perEra(seen, (era) =>
      toolsOf(era)
        .filter((tool) => typeof tool.name !== 'string' || !NAME.test(tool.name))
        .map((tool) => ({
          message: `tool name ${JSON.stringify(tool.name)} breaks the naming rules`,
          era: era.era,
          offending: tool,
        })),
    ),
};

const duplicateName: Rule = {
  id: 'tools.duplicate-name',
  severity: 'warning',
  section: 'server/tools "Tool Names"',
  requirement: 'Tool names SHOULD be unique within a server.',
  check: (seen) =>
    perEra(seen, (era) => {
      if (era.lists['tools/list']?.ended !== 'done') return []; // a cut walk may repeat pages
      const names = toolsOf(era).map((tool) => String(tool.name));
      const twice = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
      return twice.map((name) => ({
        message: `tool ${JSON.stringify(name)} is listed more than once`,
        era: era.era,
      }));
    }),
};

/** Why `schema` does not compile in its dialect, or undefined when it does. */
async function schemaProblem(schema: unknown): Promise<string | undefined> {
  if (!isObject(schema)) return 'is not a JSON Schema object';
  try {
    await compileJsonSchema(schema, { engine: 'compiled' })({});
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const UNSUPPORTED_DIALECT = /unsupported JSON Schema dialect/;

function schemaRule(key: 'inputSchema' | 'outputSchema', id: string): Rule {
  return {
    id,
    severity: 'error',
    section: 'server/tools "Tool" and basic "JSON Schema Usage"',
    requirement: `${key} MUST be a valid JSON Schema object; it defaults to 2020-12 when no $schema is present.`,
    async check(seen) {
      const hits: Hit[] = [];
      for (const era of seen.eras) {
        for (const tool of toolsOf(era)) {
          if (key === 'outputSchema' && tool.outputSchema === undefined) continue;
          const problem = await schemaProblem(tool[key]);
          if (problem === undefined) continue;
          // An unknown dialect is legal; clients need support only 2020-12.
          const severity = UNSUPPORTED_DIALECT.test(problem) ? 'warning' : 'error';
          hits.push({
            message: `${key} of ${JSON.stringify(tool.name)}: ${problem}`,
            era: era.era,
            offending: tool[key],
            severity,
          });
        }
      }
      return hits;
    },
  };
}

/** The outputSchema of the tool a call named, when the tool is listed with one. */
function outputSchemaOf(era: EraSeen, name: string): Json | undefined {
  const tool = toolsOf(era).find((t) => t.name === name);
  return isObject(tool?.outputSchema) ? tool.outputSchema : undefined;
}

const structuredContent: Rule = {
  id: 'tools.structured-content',
  severity: 'error',
  section: 'server/tools "Output Schema"',
  requirement:
    'If an output schema is provided, servers MUST provide structured results that conform to this schema.',
  async check(seen) {
    const hits: Hit[] = [];
    for (const era of seen.eras) {
      for (const call of era.calls) {
        const schema = outputSchemaOf(era, call.tool);
        const result = resultOf(call.answer);
        if (!schema || !result || result.isError === true) continue;
        if (!Object.hasOwn(result, 'structuredContent')) {
          hits.push({
            message: `${call.tool} has an outputSchema but its result has no structuredContent`,
            era: era.era,
            offending: call.answer.response,
          });
          continue;
        }
        if ((await schemaProblem(schema)) !== undefined) continue; // reported by tools.output-schema
        const outcome = await compileJsonSchema(schema, { engine: 'compiled' })(result.structuredContent);
        if (!outcome.ok)
          hits.push({
            message: `structuredContent of ${call.tool} does not match its outputSchema: ${outcome.issues.slice(0, 3).join('; ')}`,
            era: era.era,
            offending: call.answer.response,
          });
      }
    }
    return hits;
  },
};

const structuredObject: Rule = {
  id: 'tools.structured-object',
  severity: 'error',
  section: 'server/tools "Structured Content"',
  requirement:
    'Structured content is returned as a JSON object in the structuredContent field of a result (legacy revisions).',
  check: (seen) =>
    perEra(seen, (era) => {
      if (era.era !== 'legacy') return [];
      return era.calls.flatMap((call) => {
        const result = resultOf(call.answer);
        if (!result || !Object.hasOwn(result, 'structuredContent') || isObject(result.structuredContent))
          return [];
        return [
          {
            message: `structuredContent of ${call.tool} is ${JSON.stringify(result.structuredContent)?.slice(0, 80)}, not an object`,
            era: 'legacy' as const,
            offending: call.answer.response,
          },
        ];
      });
    }),
};

const annotations: Rule = {
  id: 'tools.annotations',
  severity: 'info',
  section: 'schema.json "ToolAnnotations"',
  requirement: 'destructiveHint: "This property is meaningful only when readOnlyHint == false."',
  check: (seen) =>
    perEra(seen, (era) =>
      toolsOf(era).flatMap((tool) => {
        const notes = isObject(tool.annotations) ? tool.annotations : undefined;
        if (notes?.readOnlyHint !== true || notes.destructiveHint !== true) return [];
        return [
          {
            message: `${JSON.stringify(tool.name)} is both readOnlyHint and destructiveHint; clients ignore the latter`,
            era: era.era,
            offending: notes,
          },
        ];
      }),
    ),
};

/** Icons of every listed item and of the server itself. */
function iconsOf(era: EraSeen): { owner: string; src: unknown }[] {
  const owners = [...listedItems(era), serverOf(era)].filter(isObject);
  return owners.flatMap((owner) =>
    Array.isArray(owner.icons)
      ? owner.icons.map((icon) => ({
          owner: String(owner.name ?? owner.uri),
          src: isObject(icon) ? icon.src : icon,
        }))
      : [],
  );
}

function serverOf(era: EraSeen): unknown {
  const result = resultOf(era.opening);
  const meta = result?._meta;
  return era.era === 'legacy'
    ? result?.serverInfo
    : isObject(meta)
      ? meta['io.modelcontextprotocol/serverInfo']
      : undefined;
}

const icons: Rule = {
  id: 'tools.icon-src',
  severity: 'warning',
  section: 'basic "icons"',
  requirement:
    'Ensure that the icon URI is either a HTTPS or data: URI. Clients MUST reject icon URIs that use unsafe schemes.',
  check: (seen) =>
    perEra(seen, (era) =>
      iconsOf(era)
        .filter(({ src }) => typeof src !== 'string' || !/^(https:|data:)/i.test(src))
        .map(({ owner, src }) => ({
          message: `icon of ${owner} has src ${JSON.stringify(src)?.slice(0, 80)}: clients reject it`,
          era: era.era,
        })),
    ),
};

/** The tool rules. */
export const TOOL_RULES: readonly Rule[] = [
  toolName,
  duplicateName,
  schemaRule('inputSchema', 'tools.input-schema'),
  schemaRule('outputSchema', 'tools.output-schema'),
  structuredContent,
  structuredObject,
  annotations,
  icons,
];
