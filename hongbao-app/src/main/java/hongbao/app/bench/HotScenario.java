package hongbao.app.bench;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** One packet, one distinct user per share plus 10% more, all racing for it. */
record HotScenario(int shares, String round) implements Scenario {

  @Override
  public String name() {
    return "hot";
  }

  @Override
  public List<Supplier<Future<?>>> prepare(BenchClient client, GrabBook book) {
    String packetId = Scenario.sendFunded(client, book, shares);
    int users = shares + Math.max(1, shares / 10);
    var calls = new ArrayList<Supplier<Future<?>>>(users);
    for (int u = 0; u < users; u++) {
      String user = "hot-" + round + "-" + u;
      calls.add(Scenario.grab(client, book, packetId, user, client.token(user)));
    }
    return calls;
  }
}
