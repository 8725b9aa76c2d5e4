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
      <div role="alert" className="m-4 rounded-xl border border-red-300 bg-red-50 p-4 text-red-900">
        <h2 className="font-semibold">Unexpected Application Error!</h2>
        <p className="mt-1 font-mono text-sm break-words">{error.message}</p>
      </div>
    );
  }
}
