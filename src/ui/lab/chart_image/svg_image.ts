/**
 * An SVG document as a decoded image, for ./rasterise.ts to draw onto a canvas. Tried from a blob: URL, then a
 * data: URL: a site's Content-Security-Policy may allow one and not the other (`img-src 'self' data:` is
 * common). When both are refused, the browser says only "The source image cannot be decoded."; the
 * `securitypolicyviolation` events seen meanwhile tell that the site's policy refused it, and the error says so.
 */

/** Why a PNG cannot be drawn on a site whose policy refuses both kinds of image URL. */
export const IMAGE_BLOCKED =
  "the site's Content-Security-Policy does not allow blob: or data: images (img-src), so no PNG can be drawn here; the SVG download still works (README: Hosting the lab)";

/** What the decode needs of the page (the browser's by default; a stub in tests). */
export interface ImagePage {
  /** A new image element. */
  image(): Pick<HTMLImageElement, "width" | "height" | "src" | "decode">;
  /** Where `securitypolicyviolation` events come (the document). */
  events: Pick<EventTarget, "addEventListener" | "removeEventListener">;
}

const browserPage = (): ImagePage => ({ image: () => new Image(), events: document });

/** The image URLs to try for `svg`, in order, each with how to let it go. */
function sources(svg: string): { url: string; free(): void }[] {
  const blob = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml;charset=utf-8" }));
  return [
    { url: blob, free: () => URL.revokeObjectURL(blob) },
    { url: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, free: () => undefined },
  ];
}

/**
 * Decode `svg` (its size `width` × `height` CSS px) and give the image to `use`; the image URL is let go after.
 * @throws Error {@link IMAGE_BLOCKED} when the site's policy refused every URL; else the last decode error.
 */
export async function withSvgImage<T>(
  svg: string,
  width: number,
  height: number,
  use: (img: CanvasImageSource) => Promise<T>,
  page: ImagePage = browserPage(),
): Promise<T> {
  let refused = 0;
  const seen = (e: Event) => {
    if ((e as SecurityPolicyViolationEvent).effectiveDirective === "img-src") refused++;
  };
  page.events.addEventListener("securitypolicyviolation", seen);
  let last: unknown = new Error("the image could not be decoded");
  try {
    for (const src of sources(svg)) {
      const img = page.image();
      img.width = width;
      img.height = height;
      img.src = src.url;
      let decoded = false;
      try {
        await img.decode();
        decoded = true;
      } catch (e) {
        last = e;
      }
      try {
        if (decoded) return await use(img as CanvasImageSource);
      } finally {
        src.free();
      }
    }
    // A violation's event is queued as a task of its own: let it arrive.
    await new Promise((r) => setTimeout(r, 50));
    throw refused > 0 ? new Error(IMAGE_BLOCKED) : last;
  } finally {
    page.events.removeEventListener("securitypolicyviolation", seen);
  }
}
