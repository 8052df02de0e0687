package hongbao.app.api;

import hongbao.app.support.Backends;

/** The contract on an embedded Redis Cluster of three masters and the embedded PostgreSQL. */
class ClusterApiContractTest extends ApiContractTest {

  @Override
  Backends backends() {
    return Backends.embeddedCluster();
  }
}
