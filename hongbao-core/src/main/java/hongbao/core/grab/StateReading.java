package hongbao.core.grab;

import hongbao.core.Unavailable;
import java.util.Optional;

/**
 * A packet's state as the grab store gave it, or why it could not: a key of the wrong type, say,
 * which answers every script with an error. The passes over every packet (the reconciler, the
 * repair after a restart) name such a packet and go on with the others; stopping at it would leave
 * every packet after it unchecked, pass after pass. An outage still stops them.
 */
public sealed interface StateReading {

  /** The state, empty when the store has none. */
  record Read(Optional<PacketState> state) implements StateReading {}

  record Unreadable(RuntimeException why) implements StateReading {}

  static StateReading of(GrabStore store, long packetId) {
    try {
      return new Read(store.state(packetId));
    } catch (Unavailable outage) {
      throw outage;
    } catch (RuntimeException unreadable) {
      return new Unreadable(unreadable);
    }
  }
}
