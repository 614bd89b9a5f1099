"""Does a kernel's IOPub drop messages when its reader lags? (issue 54, item 1: a lead for the
Lab's lost widget messages, docs/architecture.md "Render races")

A kernel (ipykernel, as Voila starts it) publishes N comm messages of SIZE bytes each while a raw
ZMQ SUB socket, connected to its IOPub port as jupyter_server's is, reads nothing for LAG seconds;
then the socket reads everything and the script prints how many arrived and which were lost.
ZMQ's PUB/XPUB socket drops (it never blocks) once the pipe to a reader holds its high-water
marks (1,000 messages each side by default) and the TCP buffers are full.

    .venv/bin/python benchmarks/iopub_drop_probe.py N LAG [SIZE]
    .venv/bin/python benchmarks/iopub_drop_probe.py 10000 8        # small messages
    .venv/bin/python benchmarks/iopub_drop_probe.py 20000 10 2000  # 2 KB messages
"""

import sys, time, zmq, json
from jupyter_client.manager import start_new_kernel
N = int(sys.argv[1]); lag = float(sys.argv[2]); size = int(sys.argv[3]) if len(sys.argv) > 3 else 10
km, kc = start_new_kernel(kernel_name="python3")
ctx = zmq.Context()
sub = ctx.socket(zmq.SUB)
sub.setsockopt(zmq.SUBSCRIBE, b"")
ci = km.get_connection_info()
sub.connect(f"tcp://{ci['ip']}:{ci['iopub_port']}")
time.sleep(1)
try:
    code = f"""
from ipykernel.comm import Comm
c = Comm(target_name='x', data={{}})
pad = 'x' * {size}
for i in range({N}):
    c.send({{'i': i, 'pad': pad}})
"""
    kc.execute(code)
    time.sleep(lag)  # this SUB does not read meanwhile
    got = []
    while sub.poll(3000):
        parts = sub.recv_multipart()
        try:
            i = parts.index(b"<IDS|MSG>")
            header = json.loads(parts[i + 2]); content = json.loads(parts[i + 5])
        except Exception:
            continue
        if header["msg_type"] == "comm_msg":
            got.append(content["data"]["i"])
    missing = sorted(set(range(N)) - set(got))
    print(f"N={N} lag={lag}s size={size} received {len(got)} missing {len(missing)}", (missing[:2], missing[-2:]) if missing else "")
finally:
    sub.close(); kc.stop_channels(); km.shutdown_kernel(now=True)
