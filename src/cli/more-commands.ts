/**
 * The commands that parse their own flags in their own modules (migrate, card,
 * registry-json, serve --openapi), so that args.ts only hands them the rest of the line.
 */
import { parseMigrateCommand, type MigrateCommand } from './migrate.js';
import {
  parseCardCommand,
  parseRegistryJsonCommand,
  type CardCommand,
  type RegistryJsonCommand,
} from './card-args.js';
import { isOpenApiServe, parseOpenApiServe, type OpenApiCommand } from './serve-openapi.js';

/** One of these commands, parsed. */
export type MoreCommand = MigrateCommand | CardCommand | RegistryJsonCommand | OpenApiCommand;

/** `first` and `rest` as one of these commands; undefined when `first` names none of them. */
export function parseMoreCommand(first: string, rest: string[]): MoreCommand | undefined {
  if (first === 'migrate') return parseMigrateCommand(rest);
  if (first === 'card') return parseCardCommand(rest);
  if (first === 'registry-json') return parseRegistryJsonCommand(rest);
  if (first === 'serve' && isOpenApiServe(rest) && !rest.includes('--help')) return parseOpenApiServe(rest);
  return undefined;
}
