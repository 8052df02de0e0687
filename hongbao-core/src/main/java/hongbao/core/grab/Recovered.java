package hongbao.core.grab;

import hongbao.core.money.Amount;

/** What putting one lost grab back into the grab store came to (see {@link GrabStore#recover}). */
public sealed interface Recovered {

  /** Recorded now as the packet's {@code seq}-th grab. */
  record Done(Amount amount, int seq) implements Recovered {}

  /** The store has a grab of this user already, of this amount. */
  record AlreadyThere(Amount amount) implements Recovered {}

  /** What is left of the packet cannot cover the grab; nothing changed. */
  record Exhausted() implements Recovered {}

  /** The packet is closed or held in the store; nothing changed. */
  record Closed() implements Recovered {}

  /** The store has no state of the packet. */
  record Missing() implements Recovered {}

  Recovered EXHAUSTED = new Exhausted();
  Recovered CLOSED = new Closed();
  Recovered MISSING = new Missing();
}
