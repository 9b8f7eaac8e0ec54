/**
 * The prompt fixtures: plain, with arguments (and completion of `arg1`), with an embedded
 * resource and with an image.
 */
import { z } from 'zod';
import type { McpServer } from '../../src/server/index.js';
import { PNG_BASE64 } from './media.js';

/** Values offered when completing `arg1` of `test_prompt_with_arguments`. */
const ARG1_VALUES = ['paris', 'park', 'party', 'testValue1'];

/** Registers the prompt fixtures. */
export function registerPrompts(server: McpServer): void {
  server.prompt(
    'test_simple_prompt',
    { title: 'Simple prompt', description: 'A prompt without arguments' },
    () => [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  );
  server.prompt(
    'test_prompt_with_arguments',
    {
      title: 'Prompt with arguments',
      description: 'A prompt with two required arguments',
      argsSchema: z.object({
        arg1: z.string().describe('First test argument'),
        arg2: z.string().describe('Second test argument'),
      }),
      complete: { arg1: (value) => ARG1_VALUES.filter((v) => v.startsWith(value)) },
    },
    ({ arg1, arg2 }) => [
      {
        role: 'user',
        content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
      },
    ],
  );
  server.prompt(
    'test_prompt_with_embedded_resource',
    {
      title: 'Prompt with embedded resource',
      description: 'A prompt embedding the resource at resourceUri',
      argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: resourceUri,
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  );
  server.prompt(
    'test_prompt_with_image',
    { title: 'Prompt with image', description: 'A prompt holding an image' },
    () => [
      { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  );
}
