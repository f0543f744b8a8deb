// The words of a finding (shared/analysis/findings.ts decides which apply and with what numbers):
// a title a field engineer can hand over, and a detail that says what to do about it.
import type { EngineKind, RunFinding, Severity } from '../analysis/findings';
import type { Recommendation } from '../analysis/recommendations';
import type { SetupRecommendation } from '../analysis/recommendations-setup';
import {
  formatBytes,
  formatCount,
  formatFactor,
  formatPercent,
  formatMs,
  formatRunTimeMs,
  formatSignedPercent,
  formatTokens,
  formatTokensPerSecond,
} from '../format/units';

export interface Finding {
  /** What the finding is about: recovered, failed, events, budget, reserved, kv-type, overhead, board. */
  id?: string;
  severity: Severity;
  title: string;
  detail?: string;
  /** A command that fixes it, shown verbatim (code). */
  fix?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function kvTypeFlag(engine: EngineKind, type: string): string {
  return engine === 'llama'
    ? `-ctk ${type} -ctv ${type} (a quantized V cache needs flash attention: -fa on)`
    : engine === 'demo'
      ? `--kv-type ${type}`
      : `the engine's KV cache type setting`;
}

function lowerContext(engine: EngineKind): string {
  return engine === 'llama' ? 'lower -c' : engine === 'demo' ? 'lower --ctx' : 'lower the context size';
}

/** What to change when the KV cache had no room for a batch: parallel slots share its cells. */
function kvFullAdvice(engine: EngineKind): string {
  return engine === 'llama'
    ? 'The parallel slots (-np) share the -c cells: raise -c to the slots times the longest request, or lower -np.'
    : 'Requests served at once share the context: raise the context size, or serve fewer requests at once.';
}

/** Title and detail of one finding; `engine` decides which flags the advice names. */
export function wordFinding(f: RunFinding, engine: EngineKind): Finding {
  const base = { id: f.id, severity: f.severity };
  const word = (title: string, detail?: string): Finding => ({ ...base, title, ...(detail ? { detail } : {}) });
  switch (f.kind) {
    case 'recovered':
      return word(
        'This run was not finished cleanly: KVScope stopped while recording it',
        `The numbers are recomputed from the ${formatCount(f.samples)} memory samples stored before it stopped; the engine's exit status is unknown.`,
      );
    case 'failed':
      return word('The run failed', f.error);
    case 'oom':
      return word(
        `The kernel OOM killer ended the engine at ${formatRunTimeMs(f.tMs)}`,
        `${f.message ?? ''}${f.peakRssBytes !== null ? ` Peak RSS ${formatBytes(f.peakRssBytes)}.` : ''} Lower the context or the KV type, or stop other memory users on the board.`.trim(),
      );
    case 'disconnects':
      return word(
        `The link to the board dropped ${plural(f.disconnects, 'time')} (${plural(f.reconnects, 'reconnect')})`,
        'The run went on on the board and its samples were kept there; check the cable/Wi-Fi if this repeats.',
      );
    case 'lost-samples':
      return word(`${formatCount(f.lostSamples)} samples were lost (the board's spool was full)`);
    case 'throttles':
      return word(`The board throttled ${plural(f.throttles, 'time')}`, f.messages.slice(0, 3).join('; '));
    case 'kv-full':
      return word(
        `The engine found no free KV cache cells for a batch ${f.atLeast ? 'at least ' : ''}${plural(f.times, 'time')}`,
        `llama.cpp's server retries such a batch at half its size, and fails its requests when a single token does not fit. ${kvFullAdvice(engine)}`,
      );
    case 'watchdog':
      return word('The board-side watchdog ended the engine', f.message ?? undefined);
    case 'no-budget':
      return word(
        'No memory budget was given',
        'Profile again with --budget (the memory the engine may use on the board, e.g. 2GiB) to get the OOM horizon and the largest safe context.',
      );
    case 'over-budget':
      return word(
        `RSS reached ${formatBytes(f.peakRssBytes)}, over the ${formatBytes(f.budgetBytes)} budget`,
        f.maxSafeContextTokens !== null
          ? `At ${formatBytes(f.perTokenBytes)}/token the budget holds ${formatTokens(f.maxSafeContextTokens)} of context: cap the context there or give the engine more memory.`
          : undefined,
      );
    case 'reserved-too-large':
      return word(
        `The reserved context (${formatTokens(f.ctx)}) does not fit the ${formatBytes(f.budgetBytes)} budget: at most ${formatTokens(f.maxSafeContextTokens)} does`,
        `Lower the context to ${formatCount(f.suggestedCtx)} or less.`,
      );
    case 'reserved-fits':
      return word(
        `The reserved context (${formatTokens(f.ctx)}) fits the ${formatBytes(f.budgetBytes)} budget; up to ${formatTokens(f.maxSafeContextTokens)} would`,
      );
    case 'horizon': {
      const detail = [
        f.ctxTooLarge
          ? `The configured context (${formatTokens(f.ctx)}) is larger than that: a long conversation will be OOM-killed before it fills the context.`
          : '',
        f.ctxStep > 1
          ? `${formatCount(f.capTokens)} is a multiple of ${f.ctxStep}: llama.cpp rounds -c up to one.`
          : '',
      ]
        .filter(Boolean)
        .join(' ');
      return word(
        `At the measured slope (${formatBytes(f.slopeBytesPerToken)}/token) the ${formatBytes(f.budgetBytes)} budget is reached at ${formatCount(f.horizonTokens)} tokens: cap the context at ${formatCount(f.capTokens)}`,
        detail,
      );
    }
    case 'window-caps':
      return word(
        `The sliding window caps the cache: memory stays flat after ${formatTokens(f.windowTokens)}, within the ${formatBytes(f.budgetBytes)} budget`,
      );
    case 'budget-holds':
      return word(
        `The ${formatBytes(f.budgetBytes)} budget holds about ${formatTokens(f.maxSafeContextTokens)} of context at ${formatBytes(f.perTokenBytes)}/token`,
      );
    case 'reserved': {
      const parts: string[] = [];
      if (f.reservedJumpBytes !== null)
        parts.push(
          `It reserved ${formatBytes(f.reservedJumpBytes)} when the context was created${f.ctx !== null ? ` (${formatTokens(f.ctx)})` : ''}, before the first token, and RSS stayed flat while decoding.`,
        );
      if (f.perTokenBytes !== null)
        parts.push(`Each 1,024 tokens of context cost ${formatBytes(1024 * f.perTokenBytes)} whether used or not.`);
      if (f.underused && f.ctx !== null)
        parts.push(
          `This run used ${formatCount(f.underused.usedTokens)} of ${formatCount(f.ctx)} cells (prompt + generated): a context of ${formatCount(f.underused.suggestedCtx)} would hold it with 25 % to spare${f.underused.freedBytes !== null ? ` and free ${formatBytes(f.underused.freedBytes)}` : ''}.`,
        );
      return word(
        `Reserved mode: ${engine === 'llama' ? 'llama.cpp reserves n_ctx up front' : 'the engine reserves the whole context up front'} — ${lowerContext(engine)} to what you need`,
        parts.join(' '),
      );
    }
    case 'kv-type': {
      const [first, second] = f.options;
      if (!first) return word(`KV at ${f.kvType} costs ${formatBytes(f.perTokenBytes)}/token`);
      const saving = `${formatSignedPercent(first.bytesPerToken / f.perTokenBytes - 1, 0)}`;
      if (second)
        return word(
          `KV at ${f.kvType} costs ${formatBytes(f.perTokenBytes)}/token: ${first.kvType} cuts it to ${formatBytes(first.bytesPerToken)} (${saving})`,
          `Use ${kvTypeFlag(engine, first.kvType)}. ${first.kvType} keeps quality close to f16 on most models; ${second.kvType} (${formatBytes(second.bytesPerToken)}/token) saves more but can cost accuracy on long contexts — measure before shipping it.`,
        );
      return word(
        `KV at ${f.kvType} costs ${formatBytes(f.perTokenBytes)}/token; ${first.kvType} would be ${formatBytes(first.bytesPerToken)} (${saving})`,
        `Only if memory is the limit: ${kvTypeFlag(engine, first.kvType)} trades accuracy on long contexts for memory. Check the output quality on the customer's prompts first.`,
      );
    }
    case 'overhead-match':
      return word(
        `Measured KV ${formatBytes(f.measuredBytesPerToken)}/token matches the theory (${formatBytes(f.theoryBytesPerToken)}/token, ${formatFactor(f.factor)})`,
      );
    case 'overhead-high':
      return word(
        `Memory grows ${formatFactor(f.factor)} faster than the KV cache explains (${formatBytes(f.measuredBytesPerToken)}/token measured, ${formatBytes(f.theoryBytesPerToken)} in theory)`,
        'Allocator padding, duplicated buffers or per-token allocations outside the cache. Budgets and horizons here use the measured slope.',
      );
    case 'overhead-low':
      return word(
        `Memory grows slower than the theory (${formatFactor(f.factor)}): ${formatBytes(f.measuredBytesPerToken)}/token measured, ${formatBytes(f.theoryBytesPerToken)} in theory`,
        'The cache may not be fully touched yet (pages become resident on first write), or the model shape / KV type differs from what the theory assumed.',
      );
    case 'fit-noisy':
      return word(
        `The memory fit is noisy (r² ${formatCount(f.r2, 2)}): a longer run or a shorter --interval-ms gives firmer numbers`,
      );
    case 'leak':
      return word(
        `Memory keeps growing beyond the KV cache: ${formatBytes(f.bytesPerToken)}/token (confidence ${formatPercent(f.confidence)})`,
        f.reason,
      );
  }
}

/** One recommendation as a report shows it: what to change, the number it changes, what it buys, and why. */
export interface RecommendationText {
  kind: Recommendation['kind'];
  /** What to change (imperative). */
  title: string;
  /** The number it changes, before → after. */
  change: { label: string; before: string; after: string };
  /** What it buys: "+88 %" or "prevents the OOM kill". */
  effect: string;
  /** The measurement it stands on. */
  evidence: string;
  /** The flag or command that makes the change, when there is one. */
  fix?: string;
  /** The ranking key (recommendations.ts): kept so a reader can re-sort a merged list. */
  effectFraction: number;
  prevents: 'oom' | null;
}

/** The words of one recommendation (shared/analysis/recommendations.ts computes its numbers). */
export function wordRecommendation(r: Recommendation, engine: EngineKind): RecommendationText {
  const base = {
    kind: r.kind,
    effectFraction: r.effectFraction,
    prevents: r.prevents,
    effect: r.prevents === 'oom' ? 'prevents the OOM kill' : formatSignedPercent(r.effectFraction),
  };
  switch (r.kind) {
    case 'kv-type': {
      // Contexts only when the budget holds some: under a budget the weights alone fill, every
      // type holds 0 tokens ("0 → 0"), and the cost per token is what changes.
      const inContext = r.maxContextBefore !== null && r.maxContextBefore > 0 && r.maxContextAfter !== null;
      const alt = r.alternative
        ? ` ${r.alternative.toType} would cost ${formatBytes(r.alternative.bytesPerToken)}/token${inContext && r.alternative.maxContext !== null ? ` (max context ${formatTokens(r.alternative.maxContext)})` : ''}, with a larger quality cost.`
        : '';
      return {
        ...base,
        title: `Use a ${r.toType} KV cache instead of ${r.fromType}`,
        change:
          inContext && r.maxContextBefore !== null && r.maxContextAfter !== null
            ? {
                label: `Max context at the ${formatBytes(r.budgetBytes)} budget`,
                before: formatTokens(r.maxContextBefore),
                after: formatTokens(r.maxContextAfter),
              }
            : {
                label: 'KV cache per token',
                before: formatBytes(r.bytesPerTokenBefore),
                after: formatBytes(r.bytesPerTokenAfter),
              },
        evidence: `The cache costs ${formatBytes(r.bytesPerTokenBefore)}/token in ${r.fromType} as this run measured it; ${r.toType} stores the same values in ${formatBytes(r.bytesPerTokenAfter)}/token.${alt}`,
        fix: kvTypeFlag(engine, r.toType),
      };
    }
    case 'context-cap':
      return {
        ...base,
        title: `Cap the context at ${formatTokens(r.capTokens)}`,
        change: {
          label: 'Context',
          before: r.ctx !== null ? formatTokens(r.ctx) : 'unbounded',
          after: formatTokens(r.capTokens),
        },
        evidence: `At ${formatBytes(r.perTokenBytes)}/token the ${formatBytes(r.budgetBytes)} budget runs out at ${formatTokens(r.limitTokens)}: a conversation past it is OOM-killed.`,
        fix: engine === 'llama' ? `-c ${r.capTokens}` : engine === 'demo' ? `--ctx ${r.capTokens}` : undefined,
      };
    case 'reserved-ctx':
      return {
        ...base,
        title: `Reserve ${formatTokens(r.suggestedCtx)} of context, not ${formatTokens(r.ctx)}`,
        change: { label: 'Memory freed', before: formatBytes(0), after: formatBytes(r.freedBytes) },
        evidence: `The run used ${formatTokens(r.usedTokens)} of the ${formatTokens(r.ctx)} it reserved up front; the freed ${formatBytes(r.freedBytes)} is ${formatPercent(r.effectFraction)} of ${formatBytes(r.ofBytes)}.`,
        fix: engine === 'llama' ? `-c ${r.suggestedCtx}` : engine === 'demo' ? `--ctx ${r.suggestedCtx}` : undefined,
      };
    case 'mmap':
      return {
        ...base,
        effect: `${formatPercent(r.effectFraction)} of RSS at risk`,
        title: 'Load the weights into anonymous memory (no mmap), or lock them',
        change: {
          label: 'File-backed RSS the kernel may drop',
          before: formatBytes(r.fileBackedBytes),
          after: formatBytes(0),
        },
        evidence: `${formatBytes(r.fileBackedBytes)} of the ${formatBytes(r.peakRssBytes)} peak RSS is file-backed (mmap'd weights): under memory pressure the kernel drops these pages and reads them again from storage, a stall in tokens/s that the budget math does not count.`,
        fix: engine === 'llama' ? '--no-mmap (charged to the budget) or --mlock (pinned)' : undefined,
      };
    case 'swap':
      return {
        ...base,
        effect: `${formatPercent(r.effectFraction)} of RSS swapped`,
        title: 'Keep the engine out of swap (more memory headroom, or zram instead of a swap file)',
        change: { label: 'Engine memory in swap', before: formatBytes(r.swapBytes), after: formatBytes(0) },
        evidence: `${formatBytes(r.swapBytes)} of the engine was in swap (peak RSS ${formatBytes(r.peakRssBytes)}): each access to those pages waits for the swap device.`,
        fix: engine === 'llama' ? '--mlock' : undefined,
      };
    case 'throttle':
      return {
        ...base,
        title: 'Cool the board (or cap its clocks) so it does not throttle while decoding',
        change: {
          label: 'Decode tokens/s',
          before: formatTokensPerSecond(r.overallTokensPerSecond),
          after: formatTokensPerSecond(r.outsideTokensPerSecond),
        },
        evidence: `${formatTokensPerSecond(r.insideTokensPerSecond)} while throttled (${formatMs(r.insideMs)}) against ${formatTokensPerSecond(r.outsideTokensPerSecond)} outside (${formatMs(r.outsideMs)}).`,
      };
    default:
      return wordSetupRecommendation(r, base, engine);
  }
}

type WordBase = Pick<RecommendationText, 'kind' | 'effectFraction' | 'prevents' | 'effect'>;

/** The words of the engine and board set-up recommendations (shared/analysis/recommendations-setup.ts). */
function wordSetupRecommendation(r: SetupRecommendation, base: WordBase, engine: EngineKind): RecommendationText {
  const freed = (before: number, after: number, of: number) =>
    `frees ${formatBytes(before - after)}, ${formatPercent((before - after) / of)} of ${formatBytes(of)}`;
  switch (r.kind) {
    case 'swa':
      return {
        ...base,
        title: `Keep the sliding-window layers at their window of ${formatTokens(r.windowTokens)}`,
        change: {
          label: 'KV cache at this context',
          before: formatBytes(r.kvBytesBefore),
          after: formatBytes(r.kvBytesAfter),
        },
        evidence: `The engine's sliding-window cache held ${formatCount(r.swaCellsBefore)} cells; windowed it needs ${formatCount(r.swaCellsAfter)} (window × sequences + ubatch, padded to 256): ${freed(r.kvBytesBefore, r.kvBytesAfter, r.ofBytes)}.`,
        fix: engine === 'llama' ? 'drop --swa-full' : undefined,
      };
    case 'parallel':
      return {
        ...base,
        title: `Serve one sequence instead of ${r.seqs} parallel ones (same context per conversation)`,
        change: { label: 'KV cache', before: formatBytes(r.kvBytesBefore), after: formatBytes(r.kvBytesAfter) },
        evidence: `The cache holds ${r.seqs} sequences × ${formatCount(r.ctxPerSeq)} cells (n_seq_max × n_ctx_per_seq); one sequence of ${formatTokens(r.ctxPerSeq)} ${freed(r.kvBytesBefore, r.kvBytesAfter, r.ofBytes)}. Keep the parallel sequences only if that many conversations really run at once.`,
        fix: engine === 'llama' ? `-np 1 -c ${r.ctxPerSeq}` : undefined,
      };
    case 'compute-buffer':
      return {
        ...base,
        title: `Lower the micro-batch from ${r.ubatch} to ${r.suggestedUbatch} tokens`,
        change: {
          label: `Compute buffers (${r.source === 'log' ? 'as the engine logged them' : 'estimated'})`,
          before: formatBytes(r.bytesBefore),
          after: formatBytes(r.bytesAfter),
        },
        evidence:
          r.source === 'log'
            ? `The engine reserved ${formatBytes(r.bytesBefore)} of compute buffers (${r.buffers.join(', ')}) for ${r.ubatch}-token micro-batches; they scale with n_ubatch: ${freed(r.bytesBefore, r.bytesAfter, r.ofBytes)}. Prompt processing gets slower.`
            : `The engine did not log its compute buffers: estimated as one ${r.ubatch}-token micro-batch of f32 ${r.buffers.join(' and ')} (${formatBytes(r.bytesBefore)}); they scale with n_ubatch: ${freed(r.bytesBefore, r.bytesAfter, r.ofBytes)}. Prompt processing gets slower.`,
        fix: engine === 'llama' ? `-ub ${r.suggestedUbatch} -b ${r.suggestedUbatch}` : undefined,
      };
    case 'thp':
      return {
        ...base,
        effect: `up to ${formatPercent(base.effectFraction)} of ${formatBytes(r.ofBytes)} per region`,
        title: 'Set transparent huge pages to madvise, not always',
        change: {
          label: 'Anonymous memory grows in steps of',
          before: formatBytes(r.hugePageBytes),
          after: formatBytes(r.pageBytes),
        },
        evidence: `THP is "${r.enabled}" on the board: the KV cache and the engine's buffers are backed by ${formatBytes(r.hugePageBytes)} pages where the kernel can, so RSS (and the OOM horizon read from it) moves in ${formatBytes(r.hugePageBytes)} steps and a region touched in one page holds a whole huge page.`,
        fix: 'echo madvise > /sys/kernel/mm/transparent_hugepage/enabled',
      };
    case 'swap-setup':
      return {
        ...base,
        effect: `up to ${formatPercent(base.effectFraction)} more room before the kill`,
        title: 'Add compressed swap in RAM (zram)',
        change: { label: 'Swap', before: formatBytes(0), after: `${formatBytes(r.zramBytes)} zram` },
        evidence: `The run came near its memory budget and the board has no swap and no zram: the first allocation past RAM (${formatBytes(r.memTotalBytes)}) is an OOM kill. A zram device of min(RAM / 2, 4 GiB) turns that into a slowdown; what it holds depends on how well the pages compress.`,
        fix: 'zram-tools or systemd-zram-generator (zram-size = min(ram / 2, 4096))',
      };
    case 'governor':
      return {
        ...base,
        effect: `up to ${formatSignedPercent(base.effectFraction)}`,
        title: 'Benchmark with the performance CPU governor',
        change: {
          label: r.decodeTokensPerSecond !== null ? 'Decode tokens/s (CPU-bound, at most)' : 'Mean clock',
          before:
            r.decodeTokensPerSecond !== null
              ? formatTokensPerSecond(r.decodeTokensPerSecond)
              : formatPercent(r.meanClockShare),
          after:
            r.decodeTokensPerSecond !== null
              ? formatTokensPerSecond(r.decodeTokensPerSecond / r.meanClockShare)
              : formatPercent(1),
        },
        evidence: `The CPU governor was ${r.governors.join(', ')}: the clocks averaged ${formatPercent(r.meanClockShare)} of their maximum over the run, so tokens/s depended on the governor. A CPU-bound decode scales at most with the clock.`,
        fix: 'cpupower frequency-set -g performance (for the benchmark; restore afterwards)',
      };
  }
}
