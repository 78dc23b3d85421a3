/** CPU twin of src/shaders/elementwise.wgsl (plain loops; the source of truth in tests). */

export const ELEMENTWISE_OPS = ["add", "sub", "mul", "axpy", "scale", "exp", "relu", "copy"] as const;
export type ElementwiseOp = (typeof ELEMENTWISE_OPS)[number];

/** Ops that read `b`. */
export const BINARY_OPS: ReadonlySet<ElementwiseOp> = new Set(["add", "sub", "mul", "axpy"]);

/** out[i] = op(a[i], b[i]); `alpha` is used by axpy (alpha·a + b) and scale (alpha·a). Float64 arithmetic. */
export function elementwiseRef(
  op: ElementwiseOp,
  a: ArrayLike<number>,
  b: ArrayLike<number> | null,
  alpha = 1,
): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b ? b[i] : 0;
    switch (op) {
      case "add":
        out[i] = x + y;
        break;
      case "sub":
        out[i] = x - y;
        break;
      case "mul":
        out[i] = x * y;
        break;
      case "axpy":
        out[i] = alpha * x + y;
        break;
      case "scale":
        out[i] = alpha * x;
        break;
      case "exp":
        out[i] = Math.exp(x);
        break;
      case "relu":
        out[i] = Math.max(x, 0);
        break;
      case "copy":
        out[i] = x;
        break;
    }
  }
  return out;
}
