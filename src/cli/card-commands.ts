/** Runs `mcpkit card` and `mcpkit registry-json`: help, the report on stdout, the exit code. */
import { CARD_USAGE, REGISTRY_JSON_USAGE, type CardCommand, type RegistryJsonCommand } from './card-args.js';
import { runCardCommand } from './card.js';
import { runRegistryJson } from './registry-json.js';

/** Runs either command; resolves with the exit code (see each command's `--help`). */
export async function runCardCommands(command: CardCommand | RegistryJsonCommand): Promise<number> {
  if (command.help === true) return print(command.name === 'card' ? CARD_USAGE : REGISTRY_JSON_USAGE, 0);
  if (command.name === 'registry-json') return print(await runRegistryJson(command), 0);
  const { text, code } = await runCardCommand(command);
  return print(text, code);
}

function print(text: string, code: number): number {
  if (text !== '') process.stdout.write(`${text}\n`);
  return code;
}
