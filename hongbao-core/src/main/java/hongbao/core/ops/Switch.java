package hongbao.core.ops;

import java.util.Arrays;
import java.util.Optional;

/** Degradation switches: each turns one part of the service off on every instance. */
public enum Switch {
  SENDING("sending"),
  GRABBING("grabbing"),
  PAYOUTS("payouts"),
  WITHDRAWALS("withdrawals"),
  /** Issuing rewards: when off, consumers pause and events wait on the queues. */
  REWARDS("rewards");

  private final String key;

  Switch(String key) {
    this.key = key;
  }

  /** The name used in the API and in Redis. */
  public String key() {
    return key;
  }

  public static Optional<Switch> byKey(String key) {
    return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
  }
}
