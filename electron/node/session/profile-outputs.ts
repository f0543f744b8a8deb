// `kvscope profile … --out <session> --report <file>`: the session recorded while the run(s) run,
// and a report of it at the end. Options are checked before anything runs (a bad --report
// extension or a missing Chromium fails in a second, not after a 10-minute sweep).
// Without --out but with --report, the session lives in memory just long enough for the report.
import type { SweepPlan } from '../../../shared/analysis/sweep-summary';
import type { TargetFacts } from '../../../shared/run/target-facts';
import type { RunController } from '../run/run-controller';
import { CliError, type CliIo } from '../cli/cli-io';
import { appVersion } from './app-version';
import { findChromium, type PdfError } from './pdf';
import { describeWriteError } from '../util/describe-error';
import { formatFromFileName, reportPathProblem, writeReport, type ReportFormat } from './report-files';
import { SessionRecorder, type RecordedRun, type RunRecorder } from './session-recorder';
import { restorePreviousSession } from './session-backup';
import { readSession, SessionError } from './session-store';

export interface ProfileOutputs extends RunRecorder {
  recordRun(run: RunController): RecordedRun;
  /** Target facts for the session (every run's summary shows them). */
  setTarget(facts: TargetFacts): void;
  /** The plan of the sweep being recorded (the stored sweep is then the same sweep). */
  setSweep(plan: SweepPlan): void;
  /** Waits for the recorded runs to be stored, closes the session, writes the report. */
  finish(): Promise<void>;
  /**
   * Closes the session without a report (the command failed); one that recorded no run gives the
   * session it replaced its name back (session-backup.ts).
   */
  abort(): void;
}

/** null when neither --out nor --report was given. */
export function openProfileOutputs(options: { out?: string; report?: string }, io: CliIo): ProfileOutputs | null {
  const { out, report } = options;
  if (!out && !report) return null;
  let reportFormat: ReportFormat | null = null;
  if (report) {
    reportFormat = formatFromFileName(report);
    if (!reportFormat)
      throw new CliError(
        `--report ${report}: the report is written as .html, .md, .pdf, .json, .csv, .trace.json (Perfetto) or .prom (Prometheus) — by its extension`,
        2,
      );
    const problem = reportPathProblem(report);
    if (problem) throw new CliError(`--report ${report}: ${problem}`, 2);
    if (reportFormat === 'pdf') {
      try {
        findChromium();
      } catch (error) {
        throw new CliError((error as PdfError).message);
      }
    }
  }
  let recorder: SessionRecorder;
  try {
    recorder = SessionRecorder.create(out ?? ':memory:', { appVersion: appVersion() });
  } catch (error) {
    if (error instanceof SessionError) throw new CliError(`--out: ${error.message}`, 2);
    throw new CliError(`--out ${out}: ${(error as Error).message}`, 2);
  }
  const keptAs = recorder.store.previousKeptAs;
  if (out && keptAs) io.err(`kvscope profile: the session that was at ${out} is kept as ${keptAs}\n`);
  let closed = false;
  return {
    recordRun: (run) => recorder.recordRun(run),
    setTarget: (facts) => recorder.setTarget(facts),
    setSweep: (plan) => recorder.setSweep(plan),
    abort: () => {
      if (closed) return;
      closed = true;
      try {
        recorder.closeNow();
      } catch {
        // the command is failing already; its own error is the one to report
      }
      // Nothing was recorded (the target was unreachable, the run was refused): --out is left as it was.
      if (out && keptAs && recorder.runs.length === 0) {
        restorePreviousSession(out, keptAs);
        io.err(`kvscope profile: nothing recorded: ${out} is left as it was\n`);
      }
    },
    finish: async () => {
      if (closed) return;
      await Promise.all(recorder.runs.map((r) => r.finished));
      // An in-memory session is read before it is closed (closing discards it).
      const memory = !out ? recorder.read() : null;
      closed = true;
      try {
        recorder.closeNow();
      } catch (error) {
        throw new CliError(`session ${out ?? '(in memory)'}: ${(error as Error).message}`);
      }
      if (out) io.err(`kvscope profile: session written to ${out}\n`);
      if (report && reportFormat) {
        try {
          await writeReport(memory ?? readSession(out as string), reportFormat, report);
        } catch (error) {
          throw new CliError(`--report ${report}: ${describeWriteError(error, report)}`);
        }
        io.err(`kvscope profile: ${reportFormat} report written to ${report}\n`);
      }
    },
  };
}
