// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IslandBoundary } from "@/components/islands/IslandBoundary";

function Broken(): never {
  throw new Error("settlement widget exploded");
}

afterEach(cleanup);

describe("IslandBoundary", () => {
  it("shows the error screen with the message in the island's place and logs the error", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    render(
      <div>
        <IslandBoundary name="Test">
          <Broken />
        </IslandBoundary>
        <p>The rest of the page</p>
      </div>,
    );
    expect(screen.getByRole("alert").textContent).toContain("Unexpected Application Error!");
    expect(screen.getByRole("alert").textContent).toContain("settlement widget exploded");
    expect(screen.getByText("The rest of the page")).toBeTruthy();
    expect(log.mock.calls.some((call) => String(call[0]).includes("[Test]"))).toBe(true);
    log.mockRestore();
  });

  it("renders its children when nothing throws", () => {
    render(
      <IslandBoundary name="Test">
        <p>fine</p>
      </IslandBoundary>,
    );
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByText("fine")).toBeTruthy();
  });
});
