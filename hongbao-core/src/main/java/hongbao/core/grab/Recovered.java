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

  /**
   * A claimed grab of a packet of an activity whose user has grabbed as many of its shares as it
   * allows without this one; nothing changed.
   */
  record OverLimit() implements Recovered {}

  /** The packet is closed or held in the store; nothing changed. */
  record Closed() implements Recovered {}

  /** The store has no state of the packet. */
  record Missing() implements Recovered {}

  Recovered EXHAUSTED = new Exhausted();
  Recovered OVER_LIMIT = new OverLimit();
  Recovered CLOSED = new Closed();
  Recovered MISSING = new Missing();
}
