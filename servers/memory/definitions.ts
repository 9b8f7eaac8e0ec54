/**
 * The memory server's tool definitions, as the official server lists them (names, titles,
 * descriptions, draft-07 JSON Schemas, annotations): a drop-in client sees the same
 * `tools/list`. Inputs accept extra properties (as zod's objects do); outputs do not.
 */
import type { ToolAnnotations } from '../../src/core/index.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const string = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });
const strings = (description?: string) => ({
  type: 'array',
  items: { type: 'string' },
  ...(description ? { description } : {}),
});

/** An object schema; `closed` adds `additionalProperties: false` (the output schemas). */
function object(properties: Record<string, unknown>, closed: boolean) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

/** A tool's top-level schema: an object, in draft-07. */
function top(properties: Record<string, unknown>, closed: boolean) {
  const schema = object(properties, closed);
  const required = schema.required.length > 0 ? { required: schema.required } : {};
  return {
    type: 'object',
    properties,
    ...required,
    $schema: DRAFT_07,
    ...(closed ? { additionalProperties: false } : {}),
  };
}

const entity = (closed: boolean) =>
  object(
    {
      name: string('The name of the entity'),
      entityType: string('The type of the entity'),
      observations: strings('An array of observation contents associated with the entity'),
    },
    closed,
  );

const relation = (closed: boolean) =>
  object(
    {
      from: string('The name of the entity where the relation starts'),
      to: string('The name of the entity where the relation ends'),
      relationType: string('The type of the relation'),
    },
    closed,
  );

const arrayOf = (items: unknown, description?: string) => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});

const GRAPH_OUTPUT = top({ entities: arrayOf(entity(true)), relations: arrayOf(relation(true)) }, true);
const DONE_OUTPUT = top({ success: { type: 'boolean' }, message: string() }, true);

const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
const DELETE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** The definitions, by tool name, in the official order. */
export const MEMORY_TOOLS = {
  create_entities: {
    title: 'Create Entities',
    description: 'Create multiple new entities in the knowledge graph',
    inputSchema: top({ entities: arrayOf(entity(false)) }, false),
    outputSchema: top({ entities: arrayOf(entity(true)) }, true),
    annotations: WRITE,
  },
  create_relations: {
    title: 'Create Relations',
    description:
      'Create multiple new relations between entities in the knowledge graph. Relations should be in active voice',
    inputSchema: top({ relations: arrayOf(relation(false)) }, false),
    outputSchema: top({ relations: arrayOf(relation(true)) }, true),
    annotations: WRITE,
  },
  add_observations: {
    title: 'Add Observations',
    description: 'Add new observations to existing entities in the knowledge graph',
    inputSchema: top(
      {
        observations: arrayOf(
          object(
            {
              entityName: string('The name of the entity to add the observations to'),
              contents: strings('An array of observation contents to add'),
            },
            false,
          ),
        ),
      },
      false,
    ),
    outputSchema: top(
      { results: arrayOf(object({ entityName: string(), addedObservations: strings() }, true)) },
      true,
    ),
    annotations: WRITE,
  },
  delete_entities: {
    title: 'Delete Entities',
    description: 'Delete multiple entities and their associated relations from the knowledge graph',
    inputSchema: top({ entityNames: strings('An array of entity names to delete') }, false),
    outputSchema: DONE_OUTPUT,
    annotations: DELETE,
  },
  delete_observations: {
    title: 'Delete Observations',
    description: 'Delete specific observations from entities in the knowledge graph',
    inputSchema: top(
      {
        deletions: arrayOf(
          object(
            {
              entityName: string('The name of the entity containing the observations'),
              observations: strings('An array of observations to delete'),
            },
            false,
          ),
        ),
      },
      false,
    ),
    outputSchema: DONE_OUTPUT,
    annotations: DELETE,
  },
  delete_relations: {
    title: 'Delete Relations',
    description: 'Delete multiple relations from the knowledge graph',
    inputSchema: top({ relations: arrayOf(relation(false), 'An array of relations to delete') }, false),
    outputSchema: DONE_OUTPUT,
    annotations: DELETE,
  },
  read_graph: {
    title: 'Read Graph',
    description: 'Read the entire knowledge graph',
    inputSchema: top({}, false),
    outputSchema: GRAPH_OUTPUT,
    annotations: READ,
  },
  search_nodes: {
    title: 'Search Nodes',
    description: 'Search for nodes in the knowledge graph based on a query',
    inputSchema: top(
      { query: string('The search query to match against entity names, types, and observation content') },
      false,
    ),
    outputSchema: GRAPH_OUTPUT,
    annotations: READ,
  },
  open_nodes: {
    title: 'Open Nodes',
    description: 'Open specific nodes in the knowledge graph by their names',
    inputSchema: top({ names: strings('An array of entity names to retrieve') }, false),
    outputSchema: GRAPH_OUTPUT,
    annotations: READ,
  },
};
