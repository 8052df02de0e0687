package hongbao.app.bench;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A packet that sells out at once and is then hammered: twice as many users as shares, each sending
 * {@code duplicates} grabs (impatient re-taps), so most answers are SOLD_OUT or ALREADY_GRABBED.
 */
record StormScenario(int shares, int duplicates, String round) implements Scenario {

  @Override
  public String name() {
    return "storm";
  }

  @Override
  public List<Supplier<Future<?>>> prepare(BenchClient client, GrabBook book) {
    String packetId = Scenario.sendFunded(client, book, shares);
    int users = shares * 2;
    String[] tokens = new String[users];
    for (int u = 0; u < users; u++) {
      tokens[u] = client.token("storm-" + round + "-" + u);
    }
    var calls = new ArrayList<Supplier<Future<?>>>(users * duplicates);
    for (int d = 0; d < duplicates; d++) {
      for (int u = 0; u < users; u++) {
        calls.add(Scenario.grab(client, book, packetId, "storm-" + round + "-" + u, tokens[u]));
      }
    }
    return calls;
  }
}
