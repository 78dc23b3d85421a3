/**
 * A chart's '⤓ Image' PNG on a site whose Content-Security-Policy refuses blob: images (`default-src 'self'`)
 * once failed with the browser's "The source image cannot be decoded.". Now the SVG is tried from a data: URL
 * too (allowed by `img-src 'self' data:`), and when the policy refuses both the error says so
 * (src/ui/lab/chart_image/svg_image.ts).
 */
import { describe, expect, it } from "vitest";
import { IMAGE_BLOCKED, type ImagePage, withSvgImage } from "../../src/ui/lab/chart_image/svg_image";

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>';

/** A page whose policy refuses image URLs of the schemes in `refused` (firing its violation event, as Chrome). */
function page(refused: string[], violations = true): ImagePage & { tried: string[] } {
  const events = new EventTarget();
  const tried: string[] = [];
  return {
    tried,
    events,
    image: () => {
      const img = { width: 0, height: 0, src: "", decode: async () => undefined };
      img.decode = async () => {
        const scheme = img.src.slice(0, img.src.indexOf(":"));
        tried.push(scheme);
        if (!refused.includes(scheme)) return;
        if (violations)
          setTimeout(() =>
            events.dispatchEvent(
              Object.assign(new Event("securitypolicyviolation"), {
                effectiveDirective: "img-src",
                blockedURI: scheme,
              }),
            ),
          );
        throw new Error("The source image cannot be decoded.");
      };
      return img;
    },
  };
}

describe("a chart's SVG as an image, under a site's Content-Security-Policy", () => {
  it("no policy: drawn from a blob: URL", async () => {
    const p = page([]);
    expect(await withSvgImage(SVG, 4, 4, async () => "drawn", p)).toBe("drawn");
    expect(p.tried).toEqual(["blob"]);
  });

  it("blob: refused, data: allowed: drawn from the data: URL", async () => {
    const p = page(["blob"]);
    expect(await withSvgImage(SVG, 4, 4, async () => "drawn", p)).toBe("drawn");
    expect(p.tried).toEqual(["blob", "data"]);
  });

  it("both refused: says the site's policy blocks it, and that the SVG download works", async () => {
    const e = await withSvgImage(SVG, 4, 4, async () => "drawn", page(["blob", "data"])).catch(
      (x: Error) => x,
    );
    expect((e as Error).message).toBe(IMAGE_BLOCKED);
    expect(IMAGE_BLOCKED).toMatch(/^the site's Content-Security-Policy does not allow blob: or data: images/);
    expect(IMAGE_BLOCKED).toMatch(/SVG download still works/);
  });

  it("an image that does not decode for another reason keeps the browser's error", async () => {
    const e = await withSvgImage(SVG, 4, 4, async () => "drawn", page(["blob", "data"], false)).catch(
      (x: Error) => x,
    );
    expect((e as Error).message).toBe("The source image cannot be decoded.");
  });

  it("a failure while drawing is not a decode failure: not tried again", async () => {
    const p = page([]);
    const e = await withSvgImage(
      SVG,
      4,
      4,
      async () => {
        throw new Error("this browser gives no 2D canvas");
      },
      p,
    ).catch((x: Error) => x);
    expect((e as Error).message).toBe("this browser gives no 2D canvas");
    expect(p.tried).toEqual(["blob"]);
  });
});
