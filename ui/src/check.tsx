// The Check view: `mcpkit check` run by the CLI process on the connected server's target,
// its findings with severity, rule id, spec section and the spec's sentence; and the
// server's contract snapshot, as `mcpkit contract snapshot` writes it, to download.
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { download } from './download.js';

type Finding = {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  section: string;
  requirement: string;
  message: string;
  era?: string;
};
type Report = {
  target: string;
  eras: { era: string; revision: string; server?: string }[];
  findings: Finding[];
  counts: Record<string, number>;
  elapsedMs: number;
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function Findings({ report }: { report: Report }) {
  const { counts } = report;
  return (
    <div data-test="check-report">
      <p data-test="check-summary">
        {report.target}: {report.eras.map((e) => `${e.era} (${e.revision})`).join(', ') || 'no era answered'};{' '}
        errors {counts.error ?? 0}, warnings {counts.warning ?? 0}, info {counts.info ?? 0} (
        {report.elapsedMs} ms)
      </p>
      {report.findings.length === 0 && <p class="muted">No findings.</p>}
      {report.findings.length > 0 && (
        <table class="net findings">
          <thead>
            <tr>
              <th>severity</th>
              <th>rule</th>
              <th>era</th>
              <th>finding and spec line</th>
            </tr>
          </thead>
          <tbody>
            {report.findings.map((f, i) => (
              <tr key={i} data-test="finding" class={f.severity === 'error' ? 'failed' : ''}>
                <td data-col="severity">
                  <span class={`tag severity-${f.severity}`}>{f.severity}</span>
                </td>
                <td data-col="rule">
                  <code>{f.rule}</code>
                </td>
                <td data-col="era">{f.era ?? ''}</td>
                <td>
                  <div data-col="message">{f.message}</div>
                  <div class="muted" data-col="section">
                    {f.section}
                  </div>
                  <blockquote data-col="requirement">{f.requirement}</blockquote>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** The Check view of the connected server. */
export function CheckView(props: { connected: boolean }) {
  const [report, setReport] = useState<Report | undefined>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [notes, setNotes] = useState<string[]>([]);
  const run = async () => {
    setRunning(true);
    setError(undefined);
    try {
      setReport(await api<Report>('check'));
    } catch (e) {
      setError(message(e));
    } finally {
      setRunning(false);
    }
  };
  const contract = async () => {
    setError(undefined);
    try {
      const { text, leftOut } = await api<{ text: string; leftOut: string[] }>('contract');
      download(`${text}\n`, 'contract.json', 'application/json');
      setNotes(['Saved contract.json (compare two with `mcpkit contract diff OLD NEW`).', ...leftOut]);
    } catch (e) {
      setError(message(e));
    }
  };
  if (!props.connected) return <p class="muted">Connect to a server first.</p>;
  return (
    <section data-test="check">
      <p>
        <button type="button" data-test="run-check" disabled={running} onClick={() => void run()}>
          {running ? 'Checking…' : 'Run mcpkit check'}
        </button>{' '}
        <button type="button" data-test="export-contract" onClick={() => void contract()}>
          Export contract snapshot
        </button>
      </p>
      {notes.map((note) => (
        <p key={note} class="muted" data-test="contract-note">
          {note}
        </p>
      ))}
      {running && (
        <p class="muted" aria-busy="true" data-test="check-running">
          Checking both eras against the spec…
        </p>
      )}
      {error && (
        <div class="result error" role="alert" data-test="check-error">
          {error}
        </div>
      )}
      {report && <Findings report={report} />}
    </section>
  );
}
