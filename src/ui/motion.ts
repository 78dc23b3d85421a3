/**
 * How the page scrolls by itself (a new run's card into view, the run strip's ‹ ›, a lesson's "More below"):
 * smoothly, unless the reader asked the system for reduced motion (`prefers-reduced-motion: reduce`), then at
 * once. "smooth" without a DOM (Node tests).
 */
export function scrollMotion(): ScrollBehavior {
  if (typeof matchMedia === "undefined") return "smooth";
  return matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}
