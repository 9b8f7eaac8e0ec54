/** The CLI's help texts: one overview and one page per command. */
import type { CommandName } from './args.js';
import { CHECK_USAGE } from './check.js';

const SERVER = `Server (one of):
  -- COMMAND [ARGS...]   spawn COMMAND and speak stdio to it
  URL                    connect to a Streamable HTTP endpoint (http:// or https://)
  (neither)              spawn the built-in everything server`;

const CLIENT_FLAGS = `Flags:
  --era auto|modern|legacy  which protocol era to speak (default auto: probe, then fall back)
  --timeout MS              per-request timeout in milliseconds (default 60000)
  --connect-timeout MS      longest wait to connect, probe included (default 15000, or
                            --timeout when shorter)
  --header 'NAME: VALUE'    extra HTTP header on every request (repeatable; URL only)
  --token TOKEN             a bearer token obtained elsewhere (URL only); without it a
                            protected server starts the OAuth browser flow (see login)
  --stderr                  show the started server's stderr as it writes it (COMMAND only)
  --answer JSON             answer the next elicitation: a form's content ('{"name":"Ada"}')
                            or a whole result ('{"action":"decline"}'); repeatable, in order
                            (without it, call/read/prompt ask at a terminal)
  --json                    print the raw result as JSON; errors as JSON on stderr
  -h, --help                show this help

Exit codes: 0 ok, 1 the tool reported an error, 2 usage, 3 connection (could not start,
reach or connect; HTTP errors; not an MCP server), 4 protocol (an error answer, an
invalid result or a request timeout), 130 interrupted.`;

const PAGES: Record<CommandName, string> = {
  check: CHECK_USAGE,
  inspect: `Usage: mcpkit inspect [URL] [flags] [-- COMMAND [ARGS...]]

Connects to a server and prints its identity, era and protocol version, capabilities,
instructions, tools (with input schemas), resources, resource templates and prompts.

  --ui                      serve the inspector web app on 127.0.0.1 (random port) and
                            print its URL (with a session token) instead; Ctrl-C stops it
  --config FILE             with --ui: open on a catalogue of the servers of FILE, an
                            mcpServers file (as the host reads it) or a Registry server.json

${SERVER}

${CLIENT_FLAGS}`,
  call: `Usage: mcpkit call TOOL [URL] [KEY=VALUE | KEY:=JSON ...] [--args JSON] [flags] [-- COMMAND [ARGS...]]

Calls a tool and prints its result: text as text, other content summarised.
Progress is printed to stderr. Exits 1 when the tool reports an error.

  KEY=VALUE                 a string argument, e.g. text=hi
  KEY:=JSON                 an argument of any JSON type, e.g. count:=3 tags:='["a"]'
  --args JSON               the tool's arguments, a JSON object (default {}); KEY=VALUE
                            arguments are added on top

${SERVER}

${CLIENT_FLAGS}`,
  read: `Usage: mcpkit read URI [URL] [flags] [-- COMMAND [ARGS...]]

Reads a resource and prints its contents: text as text, binary contents summarised.

${SERVER}

${CLIENT_FLAGS}`,
  prompt: `Usage: mcpkit prompt NAME [URL] [KEY=VALUE ...] [--args JSON] [flags] [-- COMMAND [ARGS...]]

Gets a prompt and prints its messages.

  KEY=VALUE                 a prompt argument (prompt arguments are strings)
  --args JSON               the prompt's arguments, a JSON object of strings (default {})

${SERVER}

${CLIENT_FLAGS}`,
  serve: `Usage: mcpkit serve everything [--port N [--host HOST] [--auth-issuer URL]]
       mcpkit serve everything --port N --upstream-issuer URL --upstream-client-id ID
             --upstream-client-secret-env VAR
       mcpkit serve NAME [ARGS...] [--port N [--host HOST]] [-- ARGS...]
       mcpkit serve --openapi SPEC --base-url URL [--header 'NAME: VALUE']...
             [--token TOKEN | --token-env VAR] [--timeout MS] [--port N [--host HOST]]

Serves a built-in reference server: on stdin/stdout by default, or over Streamable HTTP
(both eras) with --port (the endpoint URL is printed to stderr; its Server Card is at
URL/server-card). Stops on SIGINT or SIGTERM. NAME is one of:

  everything                every MCP feature (the conformance fixtures)
  filesystem DIR...         files under the allowed directories (and the client's roots)
  memory                    a knowledge graph kept in MEMORY_FILE_PATH (JSON lines)
  sequential-thinking       step-by-step thinking (DISABLE_THOUGHT_LOGGING=true: quiet)
  time                      current time and time zone conversion
  git                       a git repository's status, log, diff, commits
  fetch                     fetches a URL and returns it as markdown

ARGS and the environment are those of the official server NAME stands in for (see
servers/NAME/README.md). --port, --host and --help belong to mcpkit wherever they appear
before \`--\`; pass a server argument with one of those names after \`--\`
(e.g. a directory named --port: \`mcpkit serve filesystem --port 3000 -- --port\`).
Stops on SIGINT or SIGTERM.

  --port N                  listen on port N (0 picks a free port)
  --host HOST               interface to bind (default 127.0.0.1)
  --auth-issuer URL         protect the endpoint: require access tokens (JWTs) issued by
                            the authorization server URL for this endpoint (needs --port)
  --upstream-issuer URL     protect the endpoint with mcpkit's authorization server façade
                            in front of this provider (an OpenID issuer, or https://github.com);
                            register http://HOST:N/oauth/callback as its redirect URI
  --upstream-client-id ID   the static client at the provider
  --upstream-client-secret-env VAR
                            the environment variable holding its secret
  --openapi SPEC            serve an OpenAPI 3.0/3.1 document (JSON or YAML file, or URL)
                            instead: one tool per operation, calls sent to --base-url URL
  --header 'NAME: VALUE'    a header on every API request (repeatable)
  --token / --token-env     the API's bearer token, or the environment variable holding it
  --timeout MS              per-call timeout of API requests (default 30000)
  -h, --help                show this help`,
};

const OVERVIEW = `Usage: mcpkit COMMAND [ARGS...]

Commands:
  inspect [URL] [-- COMMAND...]      describe a server: identity, era, tools, resources, prompts
                                     (--ui: the same, and much more, in a local web app)
  call TOOL [KEY=VALUE...] ...       call a tool and print the result
  read URI ...                       read a resource and print its contents
  prompt NAME [--args JSON] ...      get a prompt and print its messages
  check [URL] [-- COMMAND...]        check a server against the spec (--json, --strict, --call)
  serve NAME [ARGS] [--port N]       serve a reference server: everything, filesystem, memory,
                                     sequential-thinking, time, git, fetch (stdio or HTTP)
  serve --openapi SPEC --base-url URL  serve a REST API's operations as tools (stdio or HTTP)
  gateway --config FILE [--port N]   serve the servers of an mcpServers file as one server
  proxy [URL] [--port N] [-- CMD]    serve one server over the other transport, both eras
  login URL | logout URL             authorize with a protected server now / forget its tokens
  contract snapshot|diff ...         describe a server's tools, resources, prompts; classify changes
  record --out FILE [URL|-- CMD]     proxy a server and record the exchange (secrets redacted)
  replay FILE [--port N]             serve a recording as a deterministic mock server
  codegen [URL|-- CMD] [-o FILE]     TypeScript types and a typed proxy for a server's tools
  migrate FILE...                    rewrite code written for the official SDK v1 for mcpkit
  card URL [--check]                 fetch and validate a Server Card; --check: compare it with the server
  registry-json [URL] [-- CMD]       write the MCP Registry's server.json for a server
  dev FILE [--port N|--stdio] [--ui] serve a TypeScript server file, reloading it on every edit
  install HOST [-- CMD | URL]        write a server into Claude, Cursor, VS Code, Codex… (--list)

Without URL or \`-- COMMAND\`, client commands use the built-in everything server.

Flags:
  -h, --help                         show help (also after a command: mcpkit call --help)
  -v, --version                      print the version

Examples:
  mcpkit inspect
  mcpkit call echo text=hi
  mcpkit call echo --args '{"text":"hi"}'
  mcpkit inspect -- npx -y @modelcontextprotocol/server-everything
  mcpkit inspect http://127.0.0.1:3000/mcp --era modern`;

/** The help text for `topic`, or the overview. */
export function usage(topic?: CommandName): string {
  return topic === undefined ? OVERVIEW : PAGES[topic];
}
