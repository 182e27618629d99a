"""``python -m companion.distribute._ps_task``: run the ps or worker task ``TF_CONFIG`` names.

The entry point of the processes `create_local_cluster` starts (see `_ps_server.main`).
"""

import sys

from companion.distribute._ps_server import main

if __name__ == "__main__":
    sys.exit(main())
