package hongbao.gateway.sim;

import io.vertx.core.json.JsonObject;

/**
 * What the simulated gateway saw, for tests and operators. Touched only on the simulator's event
 * loop, so plain fields suffice.
 */
final class SimulatorStats {

  long transfers;
  long queries;

  /** Transfers of a number whose previous request was a transfer: a re-send without asking. */
  long transfersWithoutQuery;

  /** Transfers of a number already settled: answered, paid nothing. */
  long transfersOfSettled;

  long paid;
  long refused;
  long systemErrors;
  long timeouts;
  long payThenErrors;
  long callbacks;
  long duplicateCallbacks;

  JsonObject toJson() {
    return new JsonObject()
        .put("transfers", transfers)
        .put("queries", queries)
        .put("transfersWithoutQuery", transfersWithoutQuery)
        .put("transfersOfSettled", transfersOfSettled)
        .put("paid", paid)
        .put("refused", refused)
        .put("systemErrors", systemErrors)
        .put("timeouts", timeouts)
        .put("payThenErrors", payThenErrors)
        .put("callbacks", callbacks)
        .put("duplicateCallbacks", duplicateCallbacks);
  }
}
