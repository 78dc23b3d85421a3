/** Argument checks shared by the attention, optimizer and reduction wrappers (throw RangeErrors). */

/** Throw a RangeError unless `width` (threads per row) is a power of two in [1, 256]. */
export function checkWidth(op: string, width: number): void {
  if (!Number.isInteger(width) || width < 1 || width > 256 || (width & (width - 1)) !== 0)
    throw new RangeError(`${op}: width must be a power of two in [1, 256], got ${width}`);
}
