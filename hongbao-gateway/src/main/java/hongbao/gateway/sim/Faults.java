package hongbao.gateway.sim;

import io.vertx.core.json.JsonObject;

/**
 * How often the simulated gateway misbehaves, each a probability per request. Transfers and queries
 * draw one of: SYSTEM_ERROR without doing anything ({@code errorRate}); no answer in time ({@code
 * timeoutRate}: half of them dropped unprocessed, half processed and paid after the client gave
 * up); pay, then answer SYSTEM_ERROR ({@code payThenErrorRate}, transfers only); refuse ({@code
 * failRate}, transfers only: half retryable, half final). Every settlement is called back, a second
 * time with {@code duplicateCallbackRate}.
 */
public record Faults(
    double errorRate,
    double timeoutRate,
    double payThenErrorRate,
    double failRate,
    double duplicateCallbackRate) {

  public static final Faults NONE = new Faults(0, 0, 0, 0, 0);

  public Faults {
    for (double rate :
        new double[] {errorRate, timeoutRate, payThenErrorRate, failRate, duplicateCallbackRate}) {
      if (!(rate >= 0 && rate <= 1)) {
        throw new IllegalArgumentException("a fault rate is a probability, not " + rate);
      }
    }
    if (errorRate + timeoutRate + payThenErrorRate + failRate > 1 + 1e-9) {
      throw new IllegalArgumentException("the transfer fault rates add up to more than 1");
    }
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("errorRate", errorRate)
        .put("timeoutRate", timeoutRate)
        .put("payThenErrorRate", payThenErrorRate)
        .put("failRate", failRate)
        .put("duplicateCallbackRate", duplicateCallbackRate);
  }

  public static Faults fromJson(JsonObject json) {
    return new Faults(
        json.getDouble("errorRate", 0.0),
        json.getDouble("timeoutRate", 0.0),
        json.getDouble("payThenErrorRate", 0.0),
        json.getDouble("failRate", 0.0),
        json.getDouble("duplicateCallbackRate", 0.0));
  }
}
