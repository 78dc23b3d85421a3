/**
 * The uniform arena (src/gpu/uniforms.ts) on a fake device: a block is rounded up to 16 B and its padding is
 * uploaded as zeros, never as the bytes an earlier dispatch left there (a WGSL struct with more fields than its
 * params() call would read them).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { UniformArena } from "../../src/gpu/uniforms";

/** A device that records each writeBuffer's bytes. */
function fakeDevice(uploads: Uint32Array[]): GPUDevice {
  return {
    limits: { minUniformBufferOffsetAlignment: 256 },
    createBuffer: () => ({ destroy() {} }),
    queue: {
      writeBuffer(_b: GPUBuffer, _at: number, data: Uint8Array, from: number, size: number) {
        uploads.push(new Uint32Array(data.slice(from, from + size).buffer));
      },
    },
  } as unknown as GPUDevice;
}

describe("UniformArena", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("uploads a short block's padding as zeros, not the previous block's words", () => {
    if (typeof GPUBufferUsage === "undefined") vi.stubGlobal("GPUBufferUsage", { UNIFORM: 64, COPY_DST: 8 });
    const uploads: Uint32Array[] = [];
    const arena = new UniformArena(fakeDevice(uploads));
    const first = arena.push(new Uint32Array([1, 2, 5, 4]));
    expect(first).toMatchObject({ offset: 0, size: 16 });
    arena.flush();
    const second = arena.push(new Uint32Array([3]));
    expect(second).toMatchObject({ offset: 0, size: 16 });
    arena.flush();
    // Each flush uploads up to the aligned offset (256 B); the block is its first 16 B.
    expect([...uploads[0].subarray(0, 4)]).toEqual([1, 2, 5, 4]);
    expect([...uploads[1].subarray(0, 4)]).toEqual([3, 0, 0, 0]);
  });
});
