/**
 * An SVG document drawn onto a canvas as PNG, at `scale` device pixels per CSS pixel (2 at least, so a slide or
 * a printed report stays sharp).
 */

/** The scale a saved PNG is drawn at: twice the screen's pixel ratio, and 2 at least. */
export function pngScale(devicePixelRatio: number): number {
  return Math.max(2, Math.ceil(2 * (devicePixelRatio || 1)));
}

/** The PNG of `svg` (its size `width` × `height` CSS px) at `scale`. */
export async function svgToPng(svg: string, width: number, height: number, scale: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const img = new Image();
    img.width = width;
    img.height = height;
    img.src = url;
    await img.decode();
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
  } finally {
    URL.revokeObjectURL(url);
  }
}
