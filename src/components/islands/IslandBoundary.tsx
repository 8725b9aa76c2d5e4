import { Component, type ErrorInfo, type ReactNode } from "react";

/**
 * Catches a rendering failure inside one island: its place shows the error screen with the message,
 * the error is logged, and every other island and the static page keep working.
 */
export class IslandBoundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`[${this.props.name}]`, error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      // The site's warning colours: a palette of its own would cost every page's first-paint CSS its bytes.
      <div role="alert" className="border-line bg-warning-bg text-warning-text m-4 rounded-xl border p-4">
        <h2 className="font-semibold">Unexpected Application Error!</h2>
        <p className="mt-1 text-sm break-words">{error.message}</p>
      </div>
    );
  }
}
