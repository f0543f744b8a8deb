// Single values as sysfs and the Raspberry Pi firmware give them: a thermal zone's millidegrees or
// the error `cat` printed instead (EAGAIN on Jetson zones that are powered off), and the bits of
// `vcgencmd get_throttled`. Used by the board transcript parser (thermal-parsers.ts) and the
// vcgencmd collector. Pure.
import type { ThrottledRecord } from './records';
const ERRNO_BY_MESSAGE: Record<string, string> = {
  'resource temporarily unavailable': 'EAGAIN',
  'invalid argument': 'EINVAL',
  'no such file or directory': 'ENOENT',
  'permission denied': 'EACCES',
  'operation not permitted': 'EPERM',
  'no data available': 'ENODATA',
  'input/output error': 'EIO',
  // lm-sensors' own wording of EIO (lib/error.c, `ERROR: Can't get value of subfeature temp1_input: I/O error`).
  'i/o error': 'EIO',
  'no such device': 'ENODEV',
  'device or resource busy': 'EBUSY',
  'operation not supported': 'EOPNOTSUPP',
  'connection timed out': 'ETIMEDOUT',
  // i2c sensors (INA3221, hwmon) that do not answer, debugfs/sysfs attributes that refuse a read.
  'remote i/o error': 'EREMOTEIO',
  'no such device or address': 'ENXIO',
  'timer expired': 'ETIME',
  'bad address': 'EFAULT',
  'function not implemented': 'ENOSYS',
  // trans_stat larger than a page (kernels after 5.10).
  'file too large': 'EFBIG',
  'is a directory': 'EISDIR',
};

/** `Resource temporarily unavailable` → `EAGAIN`; an errno name or `errno 11` is kept/mapped; else the message. */
export function errnoName(message: string): string {
  const m = message.trim();
  if (/^E[A-Z]+$/.test(m)) return m;
  if (/^(?:errno\s*)?11$/i.test(m)) return 'EAGAIN';
  if (/^(?:errno\s*)?22$/i.test(m)) return 'EINVAL';
  // The message is the target's text: "constructor" must not find Object.prototype's member.
  const lower = m.toLowerCase();
  return (Object.hasOwn(ERRNO_BY_MESSAGE, lower) ? ERRNO_BY_MESSAGE[lower] : undefined) ?? m;
}

/**
 * One read of a thermal zone's `temp` file: millidegrees → °C. An error message (what `cat` or the
 * collector printed instead of a number) or an empty read gives `tempC: null` and the errno name.
 */
export function parseSysfsTempRead(raw: string): { tempC: number | null; error: string | null } {
  const t = raw.trim();
  if (/^-?\d+$/.test(t)) return { tempC: Number(t) / 1000, error: null };
  if (t === '') return { tempC: null, error: 'ENODATA' };
  // `cat: /sys/…/temp: Resource temporarily unavailable`: the message is what follows the last colon.
  const tool = /^(?:cat|head|grep|awk):/.exec(t);
  const message = tool ? t.slice(t.lastIndexOf(':') + 1).trim() : t;
  return { tempC: null, error: errnoName(message === '' ? t : message) };
}

const THROTTLE_BITS = 0xf000f;

/** Raspberry Pi get_throttled bits (firmware mailbox; bit 0–3 now, 16–19 since boot). */
export function decodeThrottled(
  bits: number,
  raw: string,
  source: ThrottledRecord['source'],
  line: number,
): ThrottledRecord {
  const bit = (n: number) => (bits & (1 << n)) !== 0;
  return {
    kind: 'throttled',
    line,
    source,
    raw,
    bits,
    underVoltageNow: bit(0),
    armFreqCappedNow: bit(1),
    throttledNow: bit(2),
    softTempLimitNow: bit(3),
    underVoltageOccurred: bit(16),
    armFreqCappedOccurred: bit(17),
    throttledOccurred: bit(18),
    softTempLimitOccurred: bit(19),
    otherBits: bits & ~THROTTLE_BITS,
  };
}
