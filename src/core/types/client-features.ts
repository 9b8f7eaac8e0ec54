/**
 * Features a client offers a server: sampling, elicitation and roots. In the modern era a
 * server asks for them inside an `input_required` result (MRTR), so these requests have no
 * JSON-RPC id; the legacy, server-initiated forms are in `legacy.ts`.
 * Source: MCP 2026-07-28 client/sampling, client/elicitation, client/roots, basic/patterns/mrtr.
 */
import type { JSONObject, MetaObject, Role } from './base.js';
import type { SamplingMessageContentBlock } from './content.js';
import type { Tool } from './tool-definition.js';

/** One message of a sampling conversation; content is one block or several (client/sampling, SamplingMessage). */
export interface SamplingMessage {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  _meta?: MetaObject;
}

/** A model name hint; substrings match (client/sampling "Model preferences", ModelHint). */
export interface ModelHint {
  name?: string;
}

/** The server's model wishes; priorities run 0–1 (client/sampling "Model preferences", ModelPreferences). */
export interface ModelPreferences {
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** Whether and how the model must use the offered tools (client/sampling "Tool use", ToolChoice). */
export interface ToolChoice {
  mode?: 'auto' | 'required' | 'none';
}

/** Params of `sampling/createMessage` (client/sampling "Creating messages", CreateMessageRequestParams). */
export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  metadata?: JSONObject;
  tools?: Tool[];
  toolChoice?: ToolChoice;
}

/** A sampling input request inside `inputRequests` (client/sampling, CreateMessageRequest). */
export interface CreateMessageRequest {
  method: 'sampling/createMessage';
  params: CreateMessageRequestParams;
}

/**
 * The client's sampled message; `stopReason` is e.g. `endTurn`, `stopSequence`, `maxTokens`,
 * `toolUse` (client/sampling "Creating messages", CreateMessageResult).
 */
export interface CreateMessageResult {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  model: string;
  stopReason?: string;
  _meta?: MetaObject;
}

/** A root the client exposes, a `file://` URI (client/roots, Root). */
export interface Root {
  uri: string;
  name?: string;
  _meta?: MetaObject;
}

/** A roots input request inside `inputRequests` (client/roots, ListRootsRequest). */
export interface ListRootsRequest {
  method: 'roots/list';
  params?: { _meta?: MetaObject };
}

/** The client's roots (client/roots, ListRootsResult). */
export interface ListRootsResult {
  roots: Root[];
  _meta?: MetaObject;
}

/** A free-text field of an elicitation form (client/elicitation "Supported schema types", StringSchema). */
export interface StringSchema {
  type: 'string';
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  default?: string;
}

/** A numeric field of an elicitation form (client/elicitation, NumberSchema). */
export interface NumberSchema {
  type: 'number' | 'integer';
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** A yes/no field of an elicitation form (client/elicitation, BooleanSchema). */
export interface BooleanSchema {
  type: 'boolean';
  title?: string;
  description?: string;
  default?: boolean;
}

/** A single choice among plain values (client/elicitation "Enum schema", UntitledSingleSelectEnumSchema). */
export interface UntitledSingleSelectEnumSchema {
  type: 'string';
  enum: string[];
  title?: string;
  description?: string;
  default?: string;
}

/** A value with its display title, for titled enums (client/elicitation "Enum schema"). */
export interface TitledEnumOption {
  const: string;
  title: string;
}

/** A single choice among titled values (client/elicitation "Enum schema", TitledSingleSelectEnumSchema). */
export interface TitledSingleSelectEnumSchema {
  type: 'string';
  oneOf: TitledEnumOption[];
  title?: string;
  description?: string;
  default?: string;
}

/** Several choices among plain values (client/elicitation "Enum schema", UntitledMultiSelectEnumSchema). */
export interface UntitledMultiSelectEnumSchema {
  type: 'array';
  items: { type: 'string'; enum: string[] };
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

/** Several choices among titled values (client/elicitation "Enum schema", TitledMultiSelectEnumSchema). */
export interface TitledMultiSelectEnumSchema {
  type: 'array';
  items: { anyOf: TitledEnumOption[] };
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

/** The older titled enum, titles in `enumNames`; deprecated (client/elicitation, LegacyTitledEnumSchema). */
export interface LegacyTitledEnumSchema {
  type: 'string';
  enum: string[];
  enumNames?: string[];
  title?: string;
  description?: string;
  default?: string;
}

/** A single-choice enum (client/elicitation, SingleSelectEnumSchema). */
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;

/** A multiple-choice enum (client/elicitation, MultiSelectEnumSchema). */
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;

/** Any enum field (client/elicitation, EnumSchema). */
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;

/** Any field an elicitation form may hold: flat, no nesting (client/elicitation, PrimitiveSchemaDefinition). */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/** Form-mode elicitation: the client renders `requestedSchema` (client/elicitation "Form mode", ElicitRequestFormParams). */
export interface ElicitRequestFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: {
    $schema?: string;
    type: 'object';
    properties: { [key: string]: PrimitiveSchemaDefinition };
    required?: string[];
  };
}

/** URL-mode elicitation: the user visits `url` out of band (client/elicitation "URL mode", ElicitRequestURLParams). */
export interface ElicitRequestURLParams {
  mode: 'url';
  message: string;
  url: string;
}

/** Params of `elicitation/create` (client/elicitation, ElicitRequestParams). */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/** An elicitation input request inside `inputRequests` (client/elicitation, ElicitRequest). */
export interface ElicitRequest {
  method: 'elicitation/create';
  params: ElicitRequestParams;
}

/** The user's answer; `content` only with `accept` in form mode (client/elicitation "Response actions", ElicitResult). */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: { [key: string]: string | number | boolean | string[] };
  _meta?: MetaObject;
}
