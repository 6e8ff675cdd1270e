// A minimal event emitter whose `event` has the shape of `vscode.Event`, so the editor glue can
// hand registry events straight to VS Code APIs without adapting them.

export interface Disposable {
  dispose(): void;
}

export type Listener<T> = (value: T) => unknown;

export type Event<T> = (listener: Listener<T>, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

interface Subscription<T> {
  listener: Listener<T>;
  thisArgs: unknown;
}

export class Emitter<T> implements Disposable {
  private subscriptions: Subscription<T>[] = [];
  private disposed = false;

  /** @param onListenerError receives what a listener throws, so one bad listener cannot starve the others. */
  constructor(private readonly onListenerError: (error: unknown) => void = (error) => console.error(error)) {}

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    if (this.disposed) {
      return { dispose: () => undefined };
    }
    const subscription: Subscription<T> = { listener, thisArgs };
    this.subscriptions.push(subscription);
    const handle: Disposable = {
      dispose: () => {
        this.subscriptions = this.subscriptions.filter((candidate) => candidate !== subscription);
      },
    };
    disposables?.push(handle);
    return handle;
  };

  get listenerCount(): number {
    return this.subscriptions.length;
  }

  fire(value: T): void {
    // Iterate a copy: listeners may unsubscribe (or subscribe) while being notified.
    for (const { listener, thisArgs } of [...this.subscriptions]) {
      try {
        listener.call(thisArgs, value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.subscriptions = [];
  }
}
