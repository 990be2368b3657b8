#define K(name) __kernel void name(__global uint* out, __global const uint* a, __global const uint* b)
#define I size_t i = get_global_id(0)

K(sg_ids) { I; out[i] = get_sub_group_id() << 8 | get_sub_group_local_id(); }
K(sg_size) { I; out[i] = get_sub_group_size() | get_num_sub_groups() << 8; }
K(sg_broadcast) { I; out[i] = sub_group_broadcast(a[i], 3); }
K(sg_reduce_add) { I; out[i] = sub_group_reduce_add(a[i] & 0xffff); }
K(sg_reduce_max) { I; out[i] = sub_group_reduce_max(a[i]); }
K(sg_scan_add) { I; out[i] = sub_group_scan_inclusive_add(b[i] & 0xff); }
K(sg_any_all) { I; out[i] = sub_group_any((a[i] & 0xf) == 0) | (sub_group_all(a[i] != 0) << 1); }
K(sg_barrier) { I; __local uint t[64]; t[get_local_id(0)] = a[i]; sub_group_barrier(CLK_LOCAL_MEM_FENCE); out[i] = t[get_local_id(0) ^ 1]; }
