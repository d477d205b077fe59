MemcpyHtoD,0x00007f0000000000,4096
MemcpyHtoD,0x00007f0000100000,4096
kernel-1.traceg
kernel-2.traceg
