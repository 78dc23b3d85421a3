/**
 * Whether an element is on screen (with a margin), for charts that should not re-render while scrolled away:
 * recharts dominates the page's main-thread time, and most "more metrics" charts are below the fold.
 */
import { type RefObject, useEffect, useState } from "react";

/** True while `ref`'s element is within `margin` px of the viewport (true before the first observation). */
export function useInView(ref: RefObject<Element | null>, margin = 200): boolean {
  const [inView, setInView] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const obs = new IntersectionObserver(([e]) => setInView(e.isIntersecting), { rootMargin: `${margin}px` });
    obs.observe(el);
    return () => obs.disconnect();
  }, [ref, margin]);
  return inView;
}
