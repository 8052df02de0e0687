package hongbao.core.grab;

import hongbao.core.money.Amount;
import java.time.Instant;

/** What arming a packet in the grab store came to. */
public sealed interface ArmResult {

  /** Armed now. */
  record Armed() implements ArmResult {}

  /** The packet expired before it could be armed: nothing written. */
  record TooLate() implements ArmResult {}

  /**
   * The store already holds state under this id (armed before, closed, tombstoned or held), as
   * described; nothing changed. A tombstone has count 0.
   */
  record Existing(Amount total, int count, Instant createdAt) implements ArmResult {}

  ArmResult ARMED = new Armed();
  ArmResult TOO_LATE = new TooLate();
}
