/**
 * An SVG document drawn onto a canvas as PNG, at `scale` device pixels per CSS pixel (2 at least, so a slide or
 * a printed report stays sharp), within the largest canvas every browser draws.
 */
import { withSvgImage } from "./svg_image";

/** The most pixels a saved PNG's canvas gets (Safari refuses canvases over 16,777,216 px; Chrome ~268 M). */
export const MAX_CANVAS_PIXELS = 16_000_000;

/**
 * The scale a saved PNG (`width` × `height` CSS px) is drawn at: twice the screen's pixel ratio, 2 at least,
 * but no more than keeps the canvas within MAX_CANVAS_PIXELS (at 500 % zoom 2 × dpr is 10: a wide chart would
 * pass 16.7 M px and the browser would draw nothing), and never below 1.
 */
export function pngScale(devicePixelRatio: number, width: number, height: number): number {
  const wanted = Math.max(2, Math.ceil(2 * (devicePixelRatio || 1)));
  // (w + 1)(h + 1): room for svgToPng rounding each side up half a pixel.
  const room = width > 0 && height > 0 ? Math.sqrt(MAX_CANVAS_PIXELS / ((width + 1) * (height + 1))) : wanted;
  return Math.max(1, Math.min(wanted, room));
}

/**
 * The PNG of `svg` (its size `width` × `height` CSS px) at `scale`.
 * @throws Error ./svg_image.ts IMAGE_BLOCKED when the site's Content-Security-Policy refuses the image; the
 *   browser's error when it cannot decode it or draw the PNG.
 */
export async function svgToPng(svg: string, width: number, height: number, scale: number): Promise<Blob> {
  return withSvgImage(svg, width, height, async (img) => {
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("this browser gives no 2D canvas");
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the canvas made no PNG"))), "image/png"),
    );
  });
}
