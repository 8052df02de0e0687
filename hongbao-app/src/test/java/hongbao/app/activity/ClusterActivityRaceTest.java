package hongbao.app.activity;

import hongbao.app.support.Backends;

/**
 * The same race on an embedded Redis Cluster of three masters: an activity's packets and its counts
 * share the activity's slot, so the per-user limit stays one atomic step there too.
 */
class ClusterActivityRaceTest extends ActivityRaceTest {

  @Override
  Backends backends() {
    return Backends.embeddedCluster();
  }
}
