/**
 * The memory server's nine tools, with the official server's semantics and answers (the
 * result as indented JSON text and as `structuredContent`). Inputs are bounded: a string
 * longer than {@link MAX_TEXT} characters or an array longer than {@link MAX_ITEMS} items
 * is refused before the graph is touched. Changes replace arrays and entities rather than
 * changing them in place, so an answer already given keeps what it held.
 */
import {
  errorResult,
  type McpServer,
  type StructuredToolReturn,
  type ToolDefinition,
  type ToolErrorResult,
} from '../../src/server/index.js';
import { MEMORY_TOOLS } from './definitions.js';
import {
  entityOf,
  relationOf,
  type Entity,
  type GraphFile,
  type KnowledgeGraph,
  type Relation,
} from './graph.js';

/** The longest string a call may carry, in UTF-16 code units. */
export const MAX_TEXT = 65_536;
/** The most items an array of a call may hold. */
export const MAX_ITEMS = 10_000;

type Args = Record<string, unknown>;
type Definition = ToolDefinition<Args, Args> & { outputSchema: Args };
type Operation = (
  args: Args,
  graph: GraphFile,
) => Promise<{ text: string; structured: Args; changed: boolean }>;

/** Throws when a value holds a string or an array over the bounds. */
function checkBounds(value: unknown): void {
  if (typeof value === 'string' && value.length > MAX_TEXT)
    throw new Error(`Input too large: a string of ${value.length} characters (at most ${MAX_TEXT})`);
  if (Array.isArray(value)) {
    if (value.length > MAX_ITEMS)
      throw new Error(`Input too large: ${value.length} items (at most ${MAX_ITEMS})`);
    for (const item of value) checkBounds(item);
  } else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) checkBounds(item);
}

/** Registers the tools; `changed` runs after each call that changed the graph. */
export function registerMemoryTools(server: McpServer, graph: GraphFile, changed: () => void): void {
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    const definition = MEMORY_TOOLS[name as keyof typeof MEMORY_TOOLS] as unknown as Definition;
    server.tool(name, definition, async (args: Args): Promise<StructuredToolReturn<Args>> => {
      try {
        checkBounds(args);
        const { text, structured, changed: didChange } = await operation(args, graph);
        if (didChange) changed();
        return { content: [{ type: 'text', text }], structuredContent: structured };
      } catch (error) {
        return errorResult(error instanceof Error ? error.message : String(error)) as ToolErrorResult;
      }
    });
  }
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);
const sameRelation = (a: Relation, b: Relation): boolean =>
  a.from === b.from && a.to === b.to && a.relationType === b.relationType;

/** The entities that match, and every relation with at least one end among them. */
function subgraph(graph: KnowledgeGraph, keep: (e: Entity) => boolean): KnowledgeGraph {
  const entities = graph.entities.filter(keep);
  const names = new Set(entities.map((e) => e.name));
  return { entities, relations: graph.relations.filter((r) => names.has(r.from) || names.has(r.to)) };
}

function done(message: string) {
  return { text: message, structured: { success: true, message }, changed: true };
}

const OPERATIONS: Record<keyof typeof MEMORY_TOOLS, Operation> = {
  create_entities: async (args, file) => {
    const entities = await file.update((g) => {
      const fresh = (args.entities as Entity[])
        .map(entityOf)
        .filter((e) => !g.entities.some((x) => x.name === e.name));
      g.entities = [...g.entities, ...fresh];
      return fresh;
    });
    return { text: json(entities), structured: { entities }, changed: true };
  },
  create_relations: async (args, file) => {
    const relations = await file.update((g) => {
      const fresh = (args.relations as Relation[])
        .map(relationOf)
        .filter((r) => !g.relations.some((x) => sameRelation(x, r)));
      g.relations = [...g.relations, ...fresh];
      return fresh;
    });
    return { text: json(relations), structured: { relations }, changed: true };
  },
  add_observations: async (args, file) => {
    const results = await file.update((g) => {
      g.entities = [...g.entities];
      return (args.observations as { entityName: string; contents: string[] }[]).map(
        ({ entityName, contents }) => {
          const at = g.entities.findIndex((e) => e.name === entityName);
          const entity = g.entities[at];
          if (!entity) throw new Error(`Entity with name ${entityName} not found`);
          const added = contents.filter((c) => !entity.observations.includes(c));
          g.entities[at] = { ...entity, observations: [...entity.observations, ...added] };
          return { entityName, addedObservations: added };
        },
      );
    });
    return { text: json(results), structured: { results }, changed: true };
  },
  delete_entities: async (args, file) => {
    const names = args.entityNames as string[];
    await file.update((g) => {
      g.entities = g.entities.filter((e) => !names.includes(e.name));
      g.relations = g.relations.filter((r) => !names.includes(r.from) && !names.includes(r.to));
    });
    return done('Entities deleted successfully');
  },
  delete_observations: async (args, file) => {
    const deletions = args.deletions as { entityName: string; observations: string[] }[];
    await file.update((g) => {
      g.entities = [...g.entities];
      for (const { entityName, observations } of deletions) {
        const at = g.entities.findIndex((e) => e.name === entityName);
        const entity = g.entities[at];
        if (entity)
          g.entities[at] = {
            ...entity,
            observations: entity.observations.filter((o) => !observations.includes(o)),
          };
      }
    });
    return done('Observations deleted successfully');
  },
  delete_relations: async (args, file) => {
    const gone = args.relations as Relation[];
    await file.update((g) => {
      g.relations = g.relations.filter((r) => !gone.some((d) => sameRelation(r, d)));
    });
    return done('Relations deleted successfully');
  },
  read_graph: (_args, file) => file.read((g) => answer(g)),
  search_nodes: (args, file) => {
    const query = (args.query as string).toLowerCase();
    const hit = (s: string): boolean => s.toLowerCase().includes(query);
    return file.read((g) =>
      answer(subgraph(g, (e) => hit(e.name) || hit(e.entityType) || e.observations.some(hit))),
    );
  },
  open_nodes: (args, file) => {
    const names = args.names as string[];
    return file.read((g) => answer(subgraph(g, (e) => names.includes(e.name))));
  },
};

/** A read's answer: the (sub)graph as JSON text and as `structuredContent`. */
function answer(graph: KnowledgeGraph) {
  return { text: json(graph), structured: { ...graph }, changed: false };
}
