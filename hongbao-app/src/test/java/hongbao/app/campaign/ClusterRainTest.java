package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.support.Backends;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rain end to end again with the service on an embedded Redis Cluster of three masters: the
 * same scripts over the same link, a campaign's home slots (sub-pools, win counters, recorded wins)
 * and its budget keys spread over the masters by their hash tags, the reward pipeline's Redis
 * topics split over four streams. A full-size round's 16 sub-pools sit in 16 slots over every
 * master.
 */
class ClusterRainTest extends RainTest {

  @Override
  Backends backends() {
    return Backends.embeddedCluster();
  }

  @Override
  int streamsPerTopic() {
    return 4;
  }

  /**
   * A quarter of the single server's big round (25,000 prizes over 4 sub-pools, 5,000 users): the
   * same checks of every win, in half the time. That the sub-pools of a full-size round spread over
   * every master is the next test's.
   */
  @Override
  int bigRoundPrizes() {
    return 25_000;
  }

  /**
   * A round of 100,000 prizes: 16 home slots, each armed on one master. Which master holds a slot
   * follows from the campaign's id, so 16 slots miss one of three masters about once in 220
   * campaigns: up to five campaigns are made until one has slots on every master.
   */
  @Test
  void homeSlots_spreadOverEveryMaster() {
    var fixture = fixture();
    Instant starts = fixture.clock.instant().plusSeconds(30);
    long budget = 100_000;
    String id = null;
    var masters = new HashSet<String>();
    for (int attempt = 0; attempt < 5 && masters.size() < Backends.CLUSTER_MASTERS; attempt++) {
      id = fixture.created(campaign(budget, 1, 3, round(starts, 60, prize("CASH", 1, 100_000))));
      int homes = fixture.rain().campaigns().get(id).homePools();
      assertThat(homes).isEqualTo(16);
      Map<Integer, List<String>> holders = holders(id, homes);
      assertThat(holders).as("every home slot armed").hasSize(homes);
      assertThat(holders.values()).allSatisfy(h -> assertThat(h).hasSize(1));
      masters.clear();
      holders.values().forEach(masters::addAll);
    }
    assertThat(masters).hasSize(Backends.CLUSTER_MASTERS);

    fixture.clock.advance(
        Duration.between(
            fixture.clock.instant(),
            starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1)));
    assertThat(fixture.awaitReturned(id)).isEqualTo(budget);
  }

  /** The masters holding each of a campaign's home slots. */
  private Map<Integer, List<String>> holders(String id, int homes) {
    Map<Integer, List<String>> holders = new HashMap<>();
    for (RedisURI master : backends().clusterMasters()) {
      RedisClient client = RedisClient.create(master);
      try (var connection = client.connect()) {
        for (int j = 0; j < homes; j++) {
          int slot = SlotHash.getSlot("{cp:" + id + ":" + j + "}");
          if (connection.sync().clusterCountKeysInSlot(slot) > 0) {
            holders.computeIfAbsent(j, k -> new ArrayList<>()).add(master.toString());
          }
        }
      } finally {
        client.shutdown();
      }
    }
    return holders;
  }
}
